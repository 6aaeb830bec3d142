#!/usr/bin/env python3
"""schema.py DOC FILE...: every JSON line of FILEs against the schema in DOC.

DOC is docs/decode.md; its ```schema block says, per object type, its fields
(name:type, name?:type when it may be absent).  Types: int, str, bool, addr
("0x" + hex digits), null, an enum of the block, [T] a list of T, {T} an
object of schema T, (T,...) a list of exactly those, A|B either.  Every
top-level object also has type, cpu (int or null) and trace_id, and no field
the schema does not name.  A FILE that is an HTML page contributes the lines
of its <script type="application/json"> element.
"""
import json
import re
import sys


def load_schema(doc):
    text = open(doc).read()
    block = re.search(r'```schema\n(.*?)```', text, re.S).group(1)
    schemas, enums = {}, {}
    for line in block.splitlines():
        if not line.strip():
            continue
        if line.startswith('enum '):
            name, *vals = line[5:].split()
            enums[name.rstrip(':')] = set(vals)
            continue
        name, rest = line.split(':', 1)
        rest = rest.strip()
        if rest.startswith('('):
            schemas[name] = ('tuple', split_top(rest[1:-1], ','))
            continue
        fields = {}
        for f in rest.split():
            key, typ = f.split(':', 1)
            fields[key.rstrip('?')] = (typ, key.endswith('?'))
        schemas[name] = ('object', fields)
    return schemas, enums


def split_top(s, sep):
    out, depth, cur = [], 0, ''
    for ch in s:
        if ch in '([{':
            depth += 1
        elif ch in ')]}':
            depth -= 1
        if ch == sep and depth == 0:
            out.append(cur)
            cur = ''
        else:
            cur += ch
    out.append(cur)
    return out


class Checker:
    def __init__(self, schemas, enums):
        self.schemas, self.enums = schemas, enums

    def value(self, v, typ, where):
        alts = split_top(typ, '|')
        errs = []
        for t in alts:
            e = self.one(v, t, where)
            if not e:
                return []
            errs += e
        return errs[:1] if len(alts) == 1 else ['%s: %r is none of %s' % (where, v, typ)]

    def one(self, v, t, where):
        if t == 'int':
            ok = isinstance(v, int) and not isinstance(v, bool)
        elif t == 'str':
            ok = isinstance(v, str)
        elif t == 'bool':
            ok = isinstance(v, bool)
        elif t == 'null':
            ok = v is None
        elif t == 'addr':
            ok = isinstance(v, str) and re.fullmatch(r'0x[0-9a-f]+', v) is not None
        elif t in self.enums:
            ok = v in self.enums[t]
        elif t.startswith('['):
            if not isinstance(v, list):
                return ['%s: not a list' % where]
            return [e for i, x in enumerate(v) for e in self.value(x, t[1:-1], '%s[%d]' % (where, i))][:1]
        elif t.startswith('{'):
            return self.obj(v, t[1:-1], where, top=False)
        elif t in self.schemas and self.schemas[t][0] == 'tuple':
            parts = self.schemas[t][1]
            if not isinstance(v, list) or len(v) != len(parts):
                return ['%s: not a %d-list' % (where, len(parts))]
            return [e for i, (x, p) in enumerate(zip(v, parts))
                    for e in self.value(x, p, '%s[%d]' % (where, i))][:1]
        elif t in self.schemas:
            return self.value(v, '{%s}' % t, where)
        else:
            return ['%s: unknown type %s in the schema' % (where, t)]
        return [] if ok else ['%s: %r is not %s' % (where, v, t)]

    def obj(self, o, name, where, top):
        if not isinstance(o, dict):
            return ['%s: not an object' % where]
        if name not in self.schemas:
            return ['%s: type %r is not in the schema' % (where, name)]
        fields = dict(self.schemas[name][1])
        if top:
            fields.update(type=('str', False), cpu=('int|null', False), trace_id=('int', False))
        errs = ['%s: field %r not in the schema of %s' % (where, k, name)
                for k in o if k not in fields]
        for k, (typ, opt) in fields.items():
            if k not in o:
                if not opt:
                    errs.append('%s: %s lacks %r' % (where, name, k))
                continue
            errs += self.value(o[k], typ, '%s.%s' % (where, k))
        return errs


def lines_of(path):
    text = open(path, encoding='utf-8').read()
    m = re.search(r'<script type="application/json" id="csdump-data">\n(.*?)</script>', text, re.S)
    return (m.group(1) if m else text).splitlines()


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    chk = Checker(*load_schema(sys.argv[1]))
    bad = 0
    for path in sys.argv[2:]:
        types = {}
        for i, line in enumerate(lines_of(path)):
            if not line.strip():
                continue
            o = json.loads(line)
            types[o.get('type')] = types.get(o.get('type'), 0) + 1
            errs = chk.obj(o, o.get('type'), '%s:%d' % (path.split('/')[-1], i + 1), top=True)
            for e in errs[:3]:
                print('FAIL ' + e)
            bad += bool(errs)
        print('%s: %s' % (path.split('/')[-1], ', '.join('%s %d' % kv for kv in sorted(types.items()))))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
