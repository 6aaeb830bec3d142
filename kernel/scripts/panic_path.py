#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""panic_path.py SRC: what the panic save runs takes no lock and sleeps not.

Every function a sink registers as its panic save (`.panic_save = fn`) runs
in the panic notifier, and its stop (`.panic_stop = fn`) in the die
notifier of an oops that will panic: interrupts off, the registry's raw
spinlock held, possibly in hard-IRQ context.  From each, follow the direct calls to
functions defined in the CoreSight directory (kernel style: a definition
starts in column 0 and ends at the first "}" in column 0) and fail on a
call that takes a lock, sleeps or allocates.  A spinlock_t is a sleeping
lock on PREEMPT_RT, which arm64 cannot select on 6.1, and lockdep does not
report a trylock of one in atomic context even with
CONFIG_PROVE_RAW_LOCK_NESTING (check_wait_context() skips trylocks; and that
option reports 6.1's own pl011 console lock in the soft-lockup panic), so
this is checked here, on the source.  Calls through pointers are not
followed.
"""
import os
import re
import sys

FORBIDDEN = re.compile(
    r"\b(spin_(?:try)?lock\w*|read_(?:try)?lock\w*|write_(?:try)?lock\w*|"
    r"mutex_(?:try)?lock\w*|down(?:_\w+)?|"
    r"k[mz]alloc\w*|kvzalloc|kvmalloc\w*|vmalloc\w*|vzalloc|kcalloc|"
    r"alloc_pages\w*|dma_alloc\w*|might_sleep|msleep\w*|ssleep|usleep_range|"
    r"schedule\w*|wait_for_completion\w*|synchronize_rcu)\s*\(")
DEF = re.compile(r"^(?:static\s+)?(?:inline\s+)?[\w\s\*]*?\b(\w+)\(([^;{]*?)\)\s*$\n\{",
                 re.M)
CALL = re.compile(r"\b([a-z_]\w*)\s*\(")
SAVE = re.compile(r"\.panic_(?:save|stop)\s*=\s*(\w+)")


def uncomment(text):
    """The text without comments (newlines kept) and string literals."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def functions(text):
    """name -> body, for each definition in column 0."""
    out = {}
    for m in DEF.finditer(text):
        end = text.find("\n}", m.end())
        if end >= 0:
            out[m.group(1)] = text[m.end():end]
    return out


def main():
    cs = os.path.join(sys.argv[1], "drivers/hwtracing/coresight")
    defs, saves = {}, []
    for name in sorted(os.listdir(cs)):
        if not name.endswith((".c", ".h")):
            continue
        with open(os.path.join(cs, name)) as f:
            text = uncomment(f.read())
        for fn, body in functions(text).items():
            defs.setdefault(fn, (name, body))
        saves += [(name, s) for s in SAVE.findall(text)]
    if not saves:
        print("panic_path: no .panic_save or .panic_stop in drivers/hwtracing/coresight")
        return 1
    bad = 0
    for where, root in saves:
        seen, todo, path, found = set(), [root], {root: root}, 0
        while todo:
            fn = todo.pop()
            if fn in seen or fn not in defs:
                continue
            seen.add(fn)
            src, body = defs[fn]
            for m in FORBIDDEN.finditer(body):
                print(f"FAIL  {where}: {path[fn]} calls {m.group(1)}() ({src})")
                found += 1
            for callee in CALL.findall(body):
                if callee in defs and callee not in seen:
                    path.setdefault(callee, f"{path[fn]} -> {callee}")
                    todo.append(callee)
        print(f"{where}: panic save {root}: {len(seen)} function(s), "
              f"{f'{found} forbidden call(s)' if found else 'no lock, no sleep, no allocation'}")
        bad |= bool(found)
    return int(bad)


if __name__ == "__main__":
    sys.exit(main())
