#!/usr/bin/env python3
"""frames.py: CoreSight formatted frames (CoreSight Architecture Specification
v3.0, D4), for tests that take a trace apart and put it together again.

  frames.py raw SNAPSHOT OUT   a copy of SNAPSHOT whose one formatted buffer
                               is split into a raw (source_data) buffer per
                               trace ID, each mapped to its own ETM
"""
import os
import re
import shutil
import sys


def deframe(buf):
    """The bytes of each trace ID of CoreSight formatted frames."""
    out, cur = {}, None
    for f in range(0, len(buf) - 15, 16):
        fr = buf[f:f + 16]
        flags = fr[15]
        for i in range(8):
            b = fr[2 * i]
            if i == 7:
                if b & 1:
                    cur = b >> 1
                else:
                    out.setdefault(cur, bytearray()).append((b & 0xfe) | (flags >> 7 & 1))
                break
            if b & 1:
                if flags >> i & 1:	# the next byte is still the old ID's
                    out.setdefault(cur, bytearray()).append(fr[2 * i + 1])
                    cur = b >> 1
                else:
                    cur = b >> 1
                    out.setdefault(cur, bytearray()).append(fr[2 * i + 1])
            else:
                out.setdefault(cur, bytearray()).append((b & 0xfe) | (flags >> i & 1))
                out.setdefault(cur, bytearray()).append(fr[2 * i + 1])
    return out

def frame(chunks):
    """CoreSight frames carrying [(id, bytes)] in order, padded with ID 0."""
    items, cur = [], None
    for cid, data in chunks:
        if data and cid != cur:
            items.append(('id', cid))
            cur = cid
        items.extend(('d', b) for b in data)
    items.append(('id', 0))
    out, fr, flags = bytearray(), [], 0
    def put(kind, v):
        nonlocal fr, flags
        p = len(fr)
        if kind == 'id' and p % 2:
            # An ID goes to an even byte: the one before, flagged so that
            # the byte after it is still the old ID's.
            d, bit = fr.pop(), flags >> (p - 1) // 2 & 1
            fr += [v << 1 | 1, (d & 0xfe) | bit]
            flags |= 1 << (p - 1) // 2
        elif kind == 'id':
            fr.append(v << 1 | 1)
        elif p % 2:
            fr.append(v)
        else:
            fr.append(v & 0xfe)
            flags |= (v & 1) << p // 2
        if len(fr) == 15:
            out.extend(fr + [flags])
            fr, flags = [], 0
    for k, v in items:
        put(k, v)
    while fr:
        put('d', 0)
    return bytes(out)


def raw_snapshot(src, out):
    """The snapshot @src with one source_data buffer per trace ID."""
    ini = open(os.path.join(src, 'trace.ini')).read()
    buf = re.search(r'file=(\S+)', ini).group(1)
    ids = deframe(open(os.path.join(src, buf), 'rb').read())
    shutil.copytree(src, out)
    os.unlink(os.path.join(out, buf))
    etms = {}
    for f in sorted(os.listdir(src)):
        text = open(os.path.join(src, f), errors='replace').read() if f.endswith('.ini') else ''
        name = re.search(r'^name=(\S+)', text, re.M)
        tid = re.search(r'^TRCTRACEIDR\S*=(\S+)', text, re.M)
        if name and tid:
            etms[int(tid.group(1), 0) & 0x7f] = name.group(1)
    sources = re.search(r'\[core_trace_sources\]\n(.*?)(\n\n|$)', ini, re.S).group(1)
    bufs = [i for i in sorted(ids) if i in etms]
    text = '[trace_buffers]\nbuffers=%s\n' % ','.join('buffer%d' % n for n in range(len(bufs)))
    for n, i in enumerate(bufs):
        open(os.path.join(out, 'raw_%02x.bin' % i), 'wb').write(ids[i])
        text += '\n[buffer%d]\nname=raw_%02x\nfile=raw_%02x.bin\nformat=source_data\n' % (n, i, i)
    text += '\n[core_trace_sources]\n%s\n\n[source_buffers]\n' % sources
    text += ''.join('%s=raw_%02x\n' % (etms[i], i) for i in bufs)
    open(os.path.join(out, 'trace.ini'), 'w').write(text)
    return bufs


if __name__ == '__main__':
    if sys.argv[1:2] == ['raw'] and len(sys.argv) == 4:
        print('raw buffers for trace IDs %s' % ', '.join('0x%x' % i for i in
                                                        raw_snapshot(sys.argv[2], sys.argv[3])))
    else:
        sys.exit(__doc__)
