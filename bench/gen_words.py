"""The benches' text input: KB KiB of words from a small vocabulary with
numbers, separated by spaces, the same bytes every time (seeded), on stdout.
usage: python3 bench/gen_words.py KB"""
import random
import sys

kb = int(sys.argv[1])
r = random.Random(1)
words = ['profile', 'sample', 'operation', 'latency', 'cache', 'branch', 'record', 'buffer', 'thread', 'line']
out, n = [], 0
while n < kb * 1024:
    w = r.choice(words) + str(r.randrange(1000))
    out.append(w)
    n += len(w) + 1
sys.stdout.write(' '.join(out))
