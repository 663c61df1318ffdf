# callgrind_split.awk: splits one callgrind profile's instructions by who
# spends them, for run.sh's INSTRUCTIONS mode. Prints "KEY COUNT" lines:
#   object NAME   instructions executed inside that object (exclusive)
#   layer NAME    instructions of a layer with the library calls it makes
#                 (inclusive): dm (the driver manager, libodbc), driver
#                 (libgcodbc or psqlODBC), libpq, client (the benchmark's
#                 own code and its direct library calls)
#   dm-call NAME  the driver manager's own instructions in one ODBC
#                 function (its entry minus the driver's call inside it)
# client_object (-v) names the benchmark's program. Reads the format
# callgrind writes by default (line positions, Ir only): a cost line after
# "calls=" is the inclusive cost of that call; a cob= line names the called
# object only when it differs from the caller's.

# The name behind a compressed "(id) name" or "(id)" reference.
function name_of(kind, text,   id) {
  if (match(text, /^\([0-9]+\)/)) {
    id = substr(text, 2, RLENGTH - 2)
    text = substr(text, RLENGTH + 1)
    sub(/^ /, "", text)
    if (text != "")
      names[kind, id] = text
    else
      text = names[kind, id]
  }
  return text
}

# An object's file name without directory and version: libpq.so.5 -> libpq.so.
function short(path) {
  sub(/.*\//, "", path)
  sub(/\.so(\..*)?$/, ".so", path)
  if (path ~ /^ld-linux/) path = "ld.so"
  return path
}

# The layer an object belongs to; "other" for the system libraries every
# layer calls (libc, libssl...): their cost stays with their caller.
function layer_of(object) {
  if (object == client_object) return "client"
  if (object == "libodbc.so") return "dm"
  if (object == "libgcodbc.so" || object == "psqlodbcw.so") return "driver"
  if (object == "libpq.so") return "libpq"
  return "other"
}

/^ob=/  { object = short(name_of("ob", substr($0, 4))); next }
/^fn=/  { fn = name_of("fn", substr($0, 4)); next }
/^cob=/ { callee_object = short(name_of("ob", substr($0, 5))); next }
/^cfn=/ { callee_fn = name_of("fn", substr($0, 5)); next }
/^calls=/ { in_call = 1; next }
/^([0-9]|\+|-|\*)/ {
  if (!in_call) {
    self[object] += $2
    next
  }
  callee = callee_object != "" ? callee_object : object
  from = layer_of(object)
  to = layer_of(callee)
  if (from != to && from != "other" && to != "other") {
    into[to] += $2
    out_of[from] += $2
    if (to == "dm") dm_in[callee_fn] += $2
    if (from == "dm") dm_out[fn] += $2
  }
  in_call = 0
  callee_object = ""
  next
}
/^summary:/ { total = $2 }

END {
  for (o in self) printf "object %s %d\n", o, self[o]
  # A layer's inclusive cost: what calls into it cost, less what it spends
  # in the layers it calls (the driver manager calls the driver, the
  # driver calls libpq). The client is what is left.
  dm = into["dm"] - out_of["dm"]
  driver = into["driver"] - out_of["driver"]
  pq = into["libpq"] - out_of["libpq"]
  printf "layer dm %d\nlayer driver %d\nlayer libpq %d\n", dm, driver, pq
  printf "layer client %d\n", total - dm - driver - pq
  for (f in dm_in) printf "dm-call %s %d\n", f, dm_in[f] - dm_out[f]
}
