import re, sys
for p in sys.argv[1:]:
    out = []
    for line in open(p):
        m = re.match(r'^(\s+(?:- )?(?:error|resolution|summary|trigger|lesson|rationale|evidence|query): )(".*)$', line.rstrip('\n'))
        if m and not (m.group(2).endswith('"') and m.group(2).count('"') == 2):
            line = m.group(1) + "'" + m.group(2).replace("'", "''") + "'\n"
        out.append(line)
    open(p, 'w').write(''.join(out))
