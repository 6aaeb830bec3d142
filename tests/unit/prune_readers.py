#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""make check's removal of scenario outputs (tests/prune.sh, mk/config.mk's
prune_chain) takes nothing a check still reads.

1. tests/prune.sh removes its paths only when every named test passed or
   was skipped, and keeps them when one failed or did not run.
2. In the commands make check would run (make -n with CSDUMP_CHECK=1
   CSDUMP_PRUNE=1, every check target), each test command that names a
   path a prune removes is one of that prune's named tests: make runs a
   prune after all of them (its prerequisites), so no test reads a path
   after it went.  A new check that reads a scenario's outputs and is not
   listed among its readers fails here, not now and then in CI.
3. The chain exists: some scenario run waits (order-only) for a prune.

Usage: prune_readers.py REPO_DIR
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

failures = 0


def check(ok, what):
    global failures
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        failures += 1


def semantics(repo):
    prune = os.path.join(repo, "tests", "prune.sh")
    with tempfile.TemporaryDirectory() as tmp:
        res = os.path.join(tmp, "results")
        os.mkdir(res)
        out = os.path.join(tmp, "out")

        def run(names, passes, skips=(), fails=()):
            for f in os.listdir(res):
                os.unlink(os.path.join(res, f))
            for n, kind in [(n, "pass") for n in passes] + \
                    [(n, "skip") for n in skips] + [(n, "fail") for n in fails]:
                open(os.path.join(res, n + "." + kind), "w").close()
            os.makedirs(os.path.join(out, "sub"), exist_ok=True)
            open(os.path.join(out, "sub", "vmcore"), "w").close()
            r = subprocess.run([prune, res, names, out], capture_output=True, text=True)
            return r.returncode, os.path.exists(out)

        rc, kept = run("a b", ["a", "b"])
        check(rc == 0 and not kept, "prune.sh: every test passed: removed")
        rc, kept = run("a b", ["a"], skips=["b"])
        check(rc == 0 and not kept, "prune.sh: passed and skipped: removed")
        rc, kept = run("a b", ["a"], fails=["b"])
        check(rc == 0 and kept, "prune.sh: one test failed: kept, exit 0")
        rc, kept = run("a b", ["a"])
        check(rc == 0 and kept, "prune.sh: one test did not run: kept, exit 0")


def make_env():
    """The environment of a make of its own: when make check runs this test,
    its MAKEFLAGS and the variables of its command line (which make also
    exports) would carry CSDUMP_CHECK=1 into every make below."""
    env = dict(os.environ)
    for k in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "CSDUMP_CHECK",
              "CSDUMP_PRUNE", "HARNESS_VERDICT_ONLY"):
        env.pop(k, None)
    return env


def commands(repo, tmp):
    env = make_env()
    checks = subprocess.run(["make", "-s", "--no-print-directory", "list-checks"],
                            cwd=repo, capture_output=True, text=True, env=env,
                            check=True).stdout.split()
    # -n prints each command once, in an order make may run them; a recipe
    # line that calls $(MAKE) runs even under -n: RESULTS and LOGS go to a
    # scratch directory so that it records nothing of this tree's.
    r = subprocess.run(["make", "-n", "-k", "--no-print-directory", "CSDUMP_CHECK=1",
                        "CSDUMP_PRUNE=1", "RESULTS=" + os.path.join(tmp, "r"),
                        "LOGS=" + os.path.join(tmp, "l")] + checks,
                       cwd=repo, capture_output=True, text=True, env=env)
    text = r.stdout.replace("\\\n", " ")
    return checks, text.splitlines()


def readers(repo):
    with tempfile.TemporaryDirectory() as tmp:
        checks, lines = commands(repo, tmp)
        results = os.path.join(tmp, "r")
        prunes, tests = [], []
        for line in lines:
            try:
                words = shlex.split(line)
            except ValueError:
                continue
            for i, w in enumerate(words):
                if w == "tests/prune.sh" and i + 3 <= len(words) - 1:
                    prunes.append((set(words[i + 2].split()), words[i + 3:]))
                    break
                if w == "tests/harness.sh" and i + 3 < len(words):
                    tests.append((words[i + 3], line))
                    break
        check(len(prunes) >= 30, "make check removes the outputs of %d scenario(s)" % len(prunes))
        check(len(tests) >= 100, "make check runs %d test command(s)" % len(tests))
        bad = 0
        for names, paths in prunes:
            for name, line in tests:
                for p in paths:
                    if re.search(re.escape(p) + r"(/|\s|$)", line) and name not in names:
                        bad += 1
                        print("FAIL  test %s reads %s, which the prune of (%s) removes "
                              "without waiting for it" % (name, p, " ".join(sorted(names))))
        check(bad == 0, "every test that reads a pruned path is among that prune's readers")
        db = subprocess.run(["make", "-n", "-p", "CSDUMP_CHECK=1", "CSDUMP_PRUNE=1",
                             "RESULTS=" + results, "list-checks"], cwd=repo,
                            capture_output=True, text=True, env=make_env()).stdout
        chained = len(re.findall(r"^check-e2e-hw-\S+:.*\| prune-e2e-hw-", db, re.M))
        check(chained >= 20, "%d scenario run(s) wait for the prune of an earlier one" % chained)
        db = subprocess.run(["make", "-n", "-p", "RESULTS=" + results, "list-checks"],
                            cwd=repo, capture_output=True, text=True, env=make_env()).stdout
        chained = len(re.findall(r"^check-e2e-hw-\S+:.*\| prune-e2e-hw-", db, re.M))
        check(chained == 0, "outside make check no run waits for a prune (%d)" % chained)


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else ".")
    semantics(repo)
    readers(repo)
    print("%d failure(s)" % failures)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
