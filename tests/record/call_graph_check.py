"""Call stacks of `armprof record` against the truth (issue 20).

usage: call_graph_check.py BINARY STACK_COUNTS FOLDED
       call_graph_check.py BINARY STACK_COUNTS --own   (the truth of the
       blocks of the program's own functions, "path count" lines, sorted:
       what does not depend on how the threads were scheduled)

STACK_COUNTS: `armprof record --stack-counts` ("count block-pc
return-addresses..." lines: the exact operations of each block on each call
path, the plugin's truth); FOLDED: `armprof report --flame` of the same
recording (folded stacks "root;...;leaf samples"). Both are reduced to the
frames of examples/call_tree.c's own functions (the C library's names
differ between symbol tables: aliases), the truth's frames named from
BINARY's symbols (aarch64-linux-gnu-nm), a return address at address - 1.

Checks, exiting 1 with a message on the first failure:
  - the call tree is the one the program has: leaf under caller_a exactly
    three times its operations under caller_b (main's and worker's); five
    levels of recurse; after_jump under jumper only (the longjmp left deep
    and deeper); handler_work under main (the signal handler); tail_callee
    under main, not under tail_caller (a tail call); worker at the root of
    the second thread; child_work under main;spawn_child (the forked child
    starts with the stack of the thread that forked);
  - every call path with at least 1% of the operations gets, in the
    samples, its share within 5 standard deviations of a binomial draw
    (plus 0.3%);
and prints the paths with both shares.
"""
import bisect, math, subprocess, sys
from collections import defaultdict

OWN = {"main", "worker", "caller_a", "caller_b", "leaf", "recurse", "deeper", "deep", "after_jump",
       "jumper", "handler_work", "handler", "tail_callee", "tail_caller", "child_work", "spawn_child"}

binary, counts_path, folded_path = sys.argv[1:4]
own_only = folded_path == "--own"
syms = []
for line in subprocess.run(["aarch64-linux-gnu-nm", binary], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in "tTwW":
        syms.append((int(f[0], 16), f[2]))
syms.sort()
addrs = [a for a, _ in syms]


def name(a):
    i = bisect.bisect_right(addrs, a) - 1
    return syms[i][1] if i >= 0 else "[unknown]"


def reduce(frames):
    own = [f for f in frames if f in OWN]
    return ";".join(own) if own else "(other)"


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


truth = defaultdict(int)
for line in open(counts_path):
    if line.startswith("#") or not line.strip():
        continue
    f = line.split()
    count, pc, rets = int(f[0]), int(f[1], 16), [int(x, 16) for x in f[2:]]
    frames = [name(r - 1) for r in reversed(rets)] + [name(pc)]
    if own_only and frames[-1] not in OWN:
        continue
    truth[reduce(frames)] += count
if own_only:
    for path in sorted(truth):
        print(path, truth[path])
    sys.exit(0)
samples = defaultdict(int)
for line in open(folded_path):
    stack, _, n = line.rstrip("\n").rpartition(" ")
    if stack:
        samples[reduce(stack.split(";"))] += int(n)

T, N = sum(truth.values()), sum(samples.values())
if not T or not N:
    fail("no operations (%d) or no samples (%d)" % (T, N))

# The call tree.
for root in ("main", "worker"):
    a, b = truth.get(root + ";caller_a;leaf", 0), truth.get(root + ";caller_b;leaf", 0)
    if not b or a != 3 * b:
        fail("%s: leaf under caller_a %d operations, under caller_b %d: not exactly 3:1" % (root, a, b))
if not truth.get("main;" + ";".join(["recurse"] * 5)) or truth.get("main;" + ";".join(["recurse"] * 6)):
    fail("recursion: not five levels of recurse")
for path in ("main;jumper;after_jump", "main;jumper;deep;deeper", "main;handler_work", "main;tail_callee",
             "main;spawn_child;child_work"):
    if not truth.get(path):
        fail("no operations on the path " + path)
for path, n in truth.items():
    if "after_jump" in path and path != "main;jumper;after_jump":
        fail("after_jump on the path %s (%d operations): the longjmp left frames behind" % (path, n))
    if "tail_caller;tail_callee" in path:
        fail("tail_callee under tail_caller: a tail call kept its frame")
    if path.startswith("main;") and "worker" in path:
        fail("the second thread's path %s is under main" % path)

# The samples' shares.
print("%-50s %10s %10s %10s" % ("path", "truth", "samples", "limit"))
for path, n in sorted(truth.items(), key=lambda kv: -kv[1]):
    p = n / T
    if p < 0.01:
        continue
    s = samples.get(path, 0) / N
    limit = 5 * math.sqrt(p * (1 - p) / N) + 0.003
    print("%-50s %9.3f%% %9.3f%% %9.3f%%" % (path, 100 * p, 100 * s, 100 * limit))
    if abs(s - p) > limit:
        fail("%s: %.3f%% of the samples, %.3f%% of the operations" % (path, 100 * s, 100 * p))
print("call graph: %d operations, %d samples: ok" % (T, N))
