#!/usr/bin/env python3
"""Each shared library exports exactly the functions its public headers declare.

usage: check_exports.py CC INCLUDE_DIR LAYER=LIB.so=HEADER[,HEADER...]...

The declarations come from the compiler itself (GCC's -aux-info lists every
function prototype a translation unit sees, with its file and line), so the
headers are read as a C compiler reads them; static inline functions are left
out (they are not in the library). The exports are `nm -D --defined-only`.
A function declared without AP_API is missing from the exports; an internal
function marked AP_API, or a global variable, shows up as extra.
Exit 0 when every library matches, 1 otherwise (each difference listed)."""
import os
import re
import subprocess
import sys
import tempfile

AUX = re.compile(r'^/\* (?P<file>[^:]+):\d+:N. \*/ extern .*?\b(?P<name>\w+) \(')


def declared(cc, include, headers):
    """Names of the non-inline functions the given headers declare."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(tmp, 'all.c')
        aux = os.path.join(tmp, 'aux.txt')
        with open(src, 'w') as f:
            for h in headers:
                f.write('#include "armprof/%s"\n' % h)
        subprocess.run([cc, '-std=c11', '-fsyntax-only', '-I', include, '-aux-info', aux, src],
                       check=True)
        want = {os.path.realpath(os.path.join(include, 'armprof', h)) for h in headers}
        names = set()
        with open(aux) as f:
            for line in f:
                m = AUX.match(line)
                if m and os.path.realpath(m.group('file')) in want:
                    names.add(m.group('name'))
        return names


def exported(lib):
    """Every symbol the shared library defines in its dynamic symbol table."""
    out = subprocess.run(['nm', '-D', '--defined-only', lib], check=True,
                         capture_output=True, text=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def main(argv):
    if len(argv) < 4:
        sys.stderr.write(__doc__)
        return 2
    cc, include = argv[1], argv[2]
    failures = 0
    for spec in argv[3:]:
        layer, lib, headers = spec.split('=')
        want = declared(cc, include, headers.split(','))
        have = exported(lib)
        if not want:
            print('FAIL %s: no declaration found in %s' % (layer, headers))
            failures += 1
            continue
        for name in sorted(want - have):
            print('FAIL %s: %s is declared in its headers but not exported (AP_API?)' % (layer, name))
        for name in sorted(have - want):
            print('FAIL %s: %s is exported but not declared in %s' % (layer, name, headers))
        bad = len(want ^ have)
        failures += bad
        print('%s %s: %d functions declared, %d symbols exported' %
              ('ok' if bad == 0 else 'FAIL', os.path.basename(lib), len(want), len(have)))
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
