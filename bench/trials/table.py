#!/usr/bin/env python3
"""Prints a trial's bench CSVs as one table (run in the folder that holds them).

Each variant's two rounds are LABEL1.csv and LABEL2.csv; a row is a case, a column
a variant, each cell the rounds' kernel medians in microseconds joined by '/'.

    table.py STRIP LABEL...    STRIP: text dropped from the ops' names
"""
import csv
import glob
import sys

strip, cols = sys.argv[1], sys.argv[2:]
vals = {}
for f in sorted(glob.glob('*.csv')):
    for r in csv.DictReader(open(f)):
        if r['variant'] == 'kernel':
            key = (r['op'].replace(strip, ''), r['height'] + 'x' + r['width'])
            vals.setdefault(key, {})[f[:-4]] = float(r['median_us'])
print('case | shape | ' + ' | '.join(cols))
for k, v in vals.items():
    print(' | '.join(k) + ' | ' + ' | '.join('/'.join('%.1f' % v[c + i] for i in '12' if c + i in v) for c in cols))
