"""A global connection waits once for members that do not answer
(docs/global-connection.md, "Connecting"): members that stay silent cost
ConnectTimeout once per connect, not once per step of it.

usage: silent_members.py DSN HELPER DIR   (HELPER: what silent_members.sh writes)

Every connect runs in a fresh process (no topology remembered), with
ConnectTimeout=2, and must end within ConnectTimeout + 1.5 s:
(a) Servers and a locator file naming only three silent addresses (sockets
    that listen and never answer: the kernel completes the TCP handshake,
    nothing more): 08001. It used to wait for each of them three times
    (together, one by one as seeds, together again): 10 s.
(b) six such addresses: 08001. It used to take 16 s.
(c) G2N2's postmaster frozen (SIGSTOP: its kernel accepts connects that are
    never answered), the DSN's seeds and locator: the connection opens,
    with G2N2 down in SHOW GLOBAL CONNECTION. It used to wait twice.
(d) LocalityOnDemand=Yes with G1N1 and G1N2 frozen too and Servers naming
    G1N1, G1N2, G2N1 in that order: the connection opens through G2N1. The
    seeds used to be tried one after the other: one wait per silent seed.
Prints the measured times."""
import os
import socket
import subprocess
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "support"))
from fault_helper import fail, run_helper  # noqa: E402

DSN, HELPER, DIR = sys.argv[1], sys.argv[2], sys.argv[3]
TIMEOUT_S = 2
BOUND_MS = TIMEOUT_S * 1000 + 1500


def helper(*args):
    return run_helper(HELPER, *args)


def silent_ports(n):
    """n loopback sockets that listen and never accept; kept open by the caller."""
    socks = []
    for _ in range(n):
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(16)
        socks.append(s)
    return socks, [s.getsockname()[1] for s in socks]


def write_locator(name, members):
    path = os.path.join(DIR, name)
    with open(path, "w") as f:
        f.write("cluster: silent\nmembers:\n")
        for member, group, port in members:
            f.write(f"  - {{name: {member}, group: {group}, host: 127.0.0.1, port: {port}}}\n")
    return path


def connect_in_fresh_process(conn_str):
    """Connects in a new interpreter; returns (ms, SQLSTATE or 'ok', members up).
    ansi=True: when SQLDriverConnectW fails, pyodbc tries SQLDriverConnect
    again, which would time two connects as one."""
    code = ("import pyodbc, sys, time\n"
            "t0 = time.monotonic()\n"
            "try:\n"
            "    c = pyodbc.connect(sys.argv[1], autocommit=True, ansi=True)\n"
            "except pyodbc.Error as e:\n"
            "    print((time.monotonic() - t0) * 1000, e.args[0], '-')\n"
            "    sys.exit(0)\n"
            "ms = (time.monotonic() - t0) * 1000\n"
            "rows = c.cursor().execute('SHOW GLOBAL CONNECTION').fetchall()\n"
            "print(ms, 'ok', ','.join(sorted(r[0] for r in rows if r[3] == 'up')))\n"
            "c.close()\n")
    out = subprocess.run([sys.executable, "-c", code, conn_str], check=True,
                         capture_output=True, text=True).stdout.split()
    return float(out[0]), out[1], out[2]


def expect(what, conn_str, want_state, want_up=None):
    ms, state, up = connect_in_fresh_process(conn_str)
    print(f"{what}: {state} in {ms:.0f} ms (ConnectTimeout {TIMEOUT_S} s), up: {up}")
    if state != want_state:
        fail(f"{what}: {state}, expected {want_state}")
    if want_up is not None and up != want_up:
        fail(f"{what}: members up {up}, expected {want_up}")
    if ms > BOUND_MS:
        fail(f"{what}: the connect took {ms:.0f} ms, more than ConnectTimeout + 1.5 s")
    return ms


for n, label in ((3, "(a)"), (6, "(b)")):
    socks, ports = silent_ports(n)
    locator = write_locator(f"silent{n}.yaml",
                            [(f"S{i}", "SG", p) for i, p in enumerate(ports)])
    servers = ",".join(f"127.0.0.1:{p}" for p in ports)
    expect(f"{label} {n} silent addresses as seeds and locator",
           f"DSN={DSN};Servers={servers};Locator={locator};ConnectTimeout={TIMEOUT_S}", "08001")
    for s in socks:
        s.close()
print("ok (a), (b): silent seeds and locator members are waited for once")

MEMBERS = helper("members").split()
PORT = {m: helper("port", m) for m in MEMBERS}
helper("sigstop", "G2N2")
try:
    expect("(c) G2N2 frozen", f"DSN={DSN};ConnectTimeout={TIMEOUT_S}", "ok",
           ",".join(sorted(m for m in MEMBERS if m != "G2N2")))
    print("ok (c): a frozen catalog member is waited for once")
    helper("sigstop", "G1N1")
    helper("sigstop", "G1N2")
    seeds = ",".join(f"127.0.0.1:{PORT[m]}" for m in ("G1N1", "G1N2", "G2N1"))
    expect("(d) LocalityOnDemand=Yes, G1N1, G1N2 and G2N2 frozen",
           f"DSN={DSN};Servers={seeds};LocalityOnDemand=Yes;ConnectTimeout={TIMEOUT_S}", "ok",
           "G2N1")
    print("ok (d): on demand, the silent seeds are waited for together")
finally:
    for m in ("G1N1", "G1N2", "G2N2"):
        helper("sigcont", m)
print("PASS")
