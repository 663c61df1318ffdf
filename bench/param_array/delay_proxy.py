#!/usr/bin/env python3
"""delay_proxy: a TCP proxy on loopback that holds every chunk of data for
DELAY_MS milliseconds in each direction, so a benchmark can see what a
network's round trip costs each client (run.sh's LATENCY_MS mode). Order
and contents are kept; only time is added. Prints "ready" once listening.

    delay_proxy.py LISTEN_PORT TARGET_PORT DELAY_MS
"""
import asyncio
import sys


async def pump(reader, writer, delay):
    """Copies reader to writer, each chunk written delay seconds after it
    was read, in the order read."""
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def deliver():
        while True:
            due, data = await queue.get()
            wait = due - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
            if not data:
                writer.close()
                return
            writer.write(data)
            await writer.drain()

    sender = asyncio.create_task(deliver())
    try:
        while True:
            data = await reader.read(65536)
            await queue.put((loop.time() + delay, data))
            if not data:
                break
        await sender
    except (ConnectionError, asyncio.CancelledError):
        sender.cancel()
        writer.close()


async def main():
    listen_port, target_port = int(sys.argv[1]), int(sys.argv[2])
    delay = float(sys.argv[3]) / 1000.0

    async def serve(client_reader, client_writer):
        server_reader, server_writer = await asyncio.open_connection("127.0.0.1", target_port)
        await asyncio.gather(pump(client_reader, server_writer, delay),
                             pump(server_reader, client_writer, delay),
                             return_exceptions=True)

    server = await asyncio.start_server(serve, "127.0.0.1", listen_port)
    print("ready", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
