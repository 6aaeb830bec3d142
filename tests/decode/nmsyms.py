"""nmsyms: the function of an address by `nm -S` output, for the oracles of
tests/decode (which never ask csdump): a symbol holds [address, address +
size)."""
import bisect


class Syms:
    def __init__(self, nm_path):
        # nm prints names as their bytes: one byte, one code point.
        self.syms = sorted((int(a, 16), int(s, 16), n) for a, s, _, n in
                           (line.split() for line in open(nm_path, encoding='latin-1')))
        self.starts = [s[0] for s in self.syms]

    def find(self, addr):
        i = bisect.bisect_right(self.starts, addr) - 1
        if i < 0 or addr >= self.syms[i][0] + self.syms[i][1]:
            return None
        return self.syms[i]

    def func(self, addr):
        s = self.find(addr)
        return s[2] if s else None
