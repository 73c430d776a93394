#!/usr/bin/env python3
"""tools/test-timings.py - where a ctest run's time went, and whether it grew.

    tools/test-timings.py LOG [--slowest N]
    tools/test-timings.py LOG --check BUDGET [--slowest N]
    tools/test-timings.py LOG --record BUDGET

LOG is what ctest printed (tools/test.sh keeps it as BUILD/ctest.log). The
script reads each finished test's line ("12/607 Test #45: name ....  Passed
3.21 sec"), prints the N slowest (default 30) and the summed test time.

--check BUDGET compares the summed time with the one recorded in BUDGET
(tests/suite-time.txt: a "total SECONDS" line, then one "SECONDS NAME" line
per test): more than 20 % over it fails (exit 1) and names the tests that
grew the most against their recorded times. Raising the recorded number is
a reviewed change: --record BUDGET writes it from LOG.

Exit status: 0 fine, 1 over budget, 2 usage or an unreadable file.
"""
import re
import sys

LINE = re.compile(r'^\s*\d+/\d+ Test +#\d+: (\S+) .*?(\d+\.\d+) sec\s*$')
LIMIT = 1.20


def read_log(path):
    times = {}
    with open(path, encoding='utf-8', errors='replace') as f:
        for line in f:
            m = LINE.match(line)
            if m:
                times[m.group(1)] = float(m.group(2))
    return times


def read_budget(path):
    total, times = None, {}
    with open(path, encoding='utf-8') as f:
        for line in f:
            fields = line.split()
            if not fields or fields[0].startswith('#'):
                continue
            if fields[0] == 'total':
                total = float(fields[1])
            else:
                times[fields[1]] = float(fields[0])
    if total is None:
        raise ValueError(f'{path} has no "total SECONDS" line')
    return total, times


def main(argv):
    args = argv[1:]
    if not args:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    log, rest = args[0], args[1:]
    slowest, check, record = 30, None, None
    while rest:
        opt = rest.pop(0)
        if opt == '--slowest' and rest:
            slowest = int(rest.pop(0))
        elif opt == '--check' and rest:
            check = rest.pop(0)
        elif opt == '--record' and rest:
            record = rest.pop(0)
        else:
            print(f'test-timings: unknown or incomplete option {opt!r}', file=sys.stderr)
            return 2
    try:
        times = read_log(log)
    except OSError as e:
        print(f'test-timings: {e}', file=sys.stderr)
        return 2
    if not times:
        print(f'test-timings: {log} holds no finished test', file=sys.stderr)
        return 2
    total = sum(times.values())
    if record:
        with open(record, 'w', encoding='utf-8') as f:
            f.write('# The normal suite\'s summed test time (tools/test-timings.py --record);\n'
                    '# tools/test.sh fails when a run sums more than 20 % over it.\n'
                    '# Raising it is a reviewed change (docs/testing.md, "Where the time goes").\n')
            f.write(f'total {total:.1f}\n')
            for name, t in sorted(times.items(), key=lambda kv: -kv[1]):
                f.write(f'{t:.2f} {name}\n')
        print(f'test-timings: recorded {total:.1f} s over {len(times)} tests in {record}')
        return 0
    print(f'The {min(slowest, len(times))} slowest of {len(times)} tests (seconds):')
    for name, t in sorted(times.items(), key=lambda kv: -kv[1])[:slowest]:
        print(f'  {t:8.2f}  {name}')
    print(f'summed test time: {total:.1f} s')
    if not check:
        return 0
    try:
        budget, before = read_budget(check)
    except (OSError, ValueError) as e:
        print(f'test-timings: {e}', file=sys.stderr)
        return 2
    ratio = total / budget
    if ratio <= LIMIT:
        print(f'within budget: {total:.1f} s against {budget:.1f} s recorded ({ratio:.2f}x)')
        return 0
    print(f'FAIL: the summed test time {total:.1f} s is {ratio:.2f}x the {budget:.1f} s recorded in '
          f'{check} (limit {LIMIT:.2f}x). Grown the most:')
    grown = sorted(((t - before.get(n, 0.0), n, t) for n, t in times.items()), reverse=True)
    for delta, name, t in grown[:10]:
        was = before.get(name)
        print(f'  +{delta:7.2f} s  {name} ({t:.2f} s, was '
              f'{"new" if was is None else f"{was:.2f} s"})')
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))
