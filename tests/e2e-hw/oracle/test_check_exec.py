#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Self-test of check_exec.py's matching, on records built here.

    test_check_exec.py

The e2e-hw scenarios trust check_exec.py to refuse a decode that is not
what QEMU recorded, and to refuse itself when its damaged copies of the
record still match.  These cases pin both down on small records whose
answer is known by construction, the spin loop case among them: a CPU
waiting for a lock repeats one run thousands of times, and a 64 KiB ETF
can begin inside that loop (exec-letf-rsbb-oops under load).
"""
import os
import shutil
import struct
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import check_exec  # noqa: E402
import models  # noqa: E402  (tests/e2e-hw/models.py, check_hw.py's reader of QEMU's log)

BASE = 0xffffffc008000000


def run(n, insns=4):
    """A run of sequential instructions: [start, end)."""
    return [BASE + 0x1000 * n, BASE + 0x1000 * n + 4 * insns]


def dec(runs, exc=()):
    """The decode's form of runs: [start, end, ends at an exception]."""
    return [r + [i in exc] for i, r in enumerate(runs)]


SPIN = run(99, 8)


class FakeText:
    """check_exec.Text with a BRK at each of @brks."""

    def __init__(self, brks):
        self.brks = set(brks)


class Brk(unittest.TestCase):
    """QEMU's plugin counts a block's BRK as executed; the trace does not."""

    def ring(self, blocks):
        path = os.path.join(self.tmp, 'cpu0.ring')
        with open(path, 'wb') as f:
            for start, insns in blocks:
                f.write(struct.pack('<QII', start, insns, 0))
        return path

    def setUp(self):
        self.tmp = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_brk_taken_off_its_block(self):
        a, brk_only, vector = run(1, 6), run(2, 1), run(3, 2)
        path = self.ring([(a[0], 6), (brk_only[0], 1), (vector[0], 2)])
        image = (BASE, BASE + 0x100000)
        # A BUG() at the end of a's block, and one alone in its block.
        text = FakeText([a[1] - 4, brk_only[0]])
        self.assertEqual(check_exec.oracle_runs(path, image, text),
                         [[a[0], a[1] - 4], vector])
        # Without the image's words: as QEMU counted.
        self.assertEqual(check_exec.oracle_runs(path, image),
                         [a, brk_only, vector])

    def test_trace_of_a_brk_matches(self):
        """The decode ends its run before the BRK, at the exception, and
        goes on at the vector: the record without its BRK has the same."""
        a, brk_only, vector = run(1, 3), run(2, 1), run(3, 2)
        path = self.ring([(a[0], 3), (brk_only[0], 1), (vector[0], 2)])
        image = (BASE, BASE + 0x100000)
        d = dec([a, vector], exc=(0,))
        orc = check_exec.oracle_runs(path, image, FakeText([brk_only[0]]))
        self.assertIsNotNone(check_exec.find(d, orc)[0])
        self.assertIsNone(check_exec.find(d, check_exec.oracle_runs(path, image))[0])


class Match(unittest.TestCase):
    def test_stretch_found_with_late_first_and_early_last(self):
        orc = [run(i) for i in range(10)]
        d = dec([[orc[3][0] + 4, orc[3][1]]] + orc[4:8] + [[orc[8][0], orc[8][1] - 4]])
        self.assertEqual(check_exec.find(d, orc), (8, None))

    def test_first_run_outside_image_may_start_late(self):
        # A trace that begins in user space: its first run is compared by
        # first address, which a trace starting late in it cannot have
        # (exec-etf16k-cti-oops, 2026-12-06).  Only the first.
        orc = [run(i) for i in range(10)]
        orc[3] = [0x422dcc, None]
        d = dec([[0x411e2c, None]] + orc[4:9])
        self.assertEqual(check_exec.find(d, orc), (8, None))
        d = dec(orc[2:3] + [[0x411e2c, None]] + orc[4:9])
        self.assertIsNone(check_exec.find(d, orc)[0])

    def test_loop_found_at_its_last_occurrence(self):
        """A trace of a loop the record repeats: the latest stretch."""
        orc = [run(1)] * 500 + [run(2)] + [run(1)] * 500
        self.assertEqual(check_exec.find(dec([run(1)] * 100), orc), (1000, None))
        d = dec([run(1)] * 10 + [run(2)] + [run(1)] * 10)
        self.assertEqual(check_exec.find(d, orc), (510, None))

    def test_same_starts_other_ends_passed_over(self):
        """The later stretch starts its runs alike but one ends elsewhere:
        the earlier one is the match."""
        orc = [run(1), run(2), run(3), run(4), run(1), run(2), run(3, 8), run(4)]
        self.assertEqual(check_exec.find(dec([run(1), run(2), run(3), run(4)]), orc),
                         (3, None))

    def test_damaged_loop_refused_in_seconds(self):
        """A trace through a loop the record repeats 20,000 times: both
        damaged copies must be searched to the start of the record.  Run by
        run from each run where the trace's last starts, that took minutes
        (296 s on a CI run's 12,572 runs); the starts searched as one
        string, well under a second."""
        a, b, c = run(1), run(2), run(3)
        orc = [run(9)] + [a, b] * 20000 + [c] + [a, b] * 2500
        d = dec([a, b] * 2500 + [c] + [a, b] * 2500)
        t0 = time.monotonic()
        j, _ = check_exec.find(d, orc)
        self.assertEqual(j, len(orc) - 1)
        self.assertTrue(check_exec.caught(d, orc, j))
        self.assertLess(time.monotonic() - t0, 5)

    def test_run_not_in_record_refused(self):
        orc = [run(i) for i in range(10)]
        d = dec(orc[3:6] + [run(50)] + orc[7:9])
        self.assertIsNone(check_exec.find(d, orc)[0])

    def test_run_of_other_length_refused(self):
        orc = [run(i) for i in range(10)]
        d = dec(orc[3:9])
        d[2][1] += 4
        self.assertIsNone(check_exec.find(d, orc)[0])


class Stretches(unittest.TestCase):
    """A trace an include range cut at each visit to user space: the
    stretches before the last are compared too, in the record's order."""

    USER = [0x400000, None]

    def setUp(self):
        a = [run(i) for i in range(0, 4)]
        b = [run(i) for i in range(10, 13)]
        # The record: a, user space, b, user space, then more of the kernel.
        self.orc = a + [self.USER] + b + [self.USER] + [run(20)]
        self.a, self.b = dec(a), dec(b)

    def test_earlier_stretch_before_the_last(self):
        j, _ = check_exec.find(self.b, self.orc)
        self.assertEqual(check_exec.earlier_stretches([self.a], self.orc, j - 2, 100),
                         (16, 1, None))

    def test_earlier_stretch_only_after_the_last_refused(self):
        """The decode's order reversed: b's stretch, then a's, is not what ran."""
        j, _ = check_exec.find(self.a, self.orc)
        insns, count, why = check_exec.earlier_stretches([self.b], self.orc, j - 3, 100)
        self.assertEqual((insns, count), (0, 0))
        self.assertIn('not in the record before the one after it', why)

    def test_enough_compared_stops(self):
        j, _ = check_exec.find(self.b, self.orc)
        self.assertEqual(check_exec.earlier_stretches([self.a], self.orc, j - 2, 0),
                         (0, 0, None))


class Damage(unittest.TestCase):
    def test_plain_stretch_damage_caught(self):
        orc = [run(i) for i in range(20)]
        d = dec(orc[2:18])
        j, _ = check_exec.find(d, orc)
        self.assertTrue(check_exec.caught(d, orc, j))

    def test_stretch_starting_in_a_spin_loop(self):
        # More than half the stretch is one repeated run: leaving one of
        # its repeats out changes nothing a trace can show, so the damage
        # must be done where the runs differ.  Failed before damage_site().
        tail = [run(i) for i in range(1, 9)]
        orc = [run(50), run(51)] + [SPIN] * 40 + tail + [run(60)]
        d = dec([SPIN] * 20 + tail)
        j, why = check_exec.find(d, orc)
        self.assertIsNotNone(j, why)
        self.assertTrue(check_exec.caught(d, orc, j))

    def test_site_differs_from_its_predecessor(self):
        tail = [run(i) for i in range(1, 9)]
        orc = [SPIN] * 40 + tail
        d = dec([SPIN] * 20 + tail)
        j, _ = check_exec.find(d, orc)
        k = check_exec.damage_site(d, orc, j)
        self.assertNotEqual(orc[k], orc[k - 1])

    def test_site_skips_a_run_ending_at_an_exception(self):
        orc = [run(i) for i in range(11)]
        d = dec(orc[0:11], exc=(5,))
        j, _ = check_exec.find(d, orc)
        self.assertEqual(j, 10)
        k = check_exec.damage_site(d, orc, j)
        self.assertNotEqual(k, 5)
        self.assertTrue(check_exec.caught(d, orc, j))

    def test_nothing_to_damage_proves_nothing(self):
        orc = [SPIN] * 30
        d = dec([SPIN] * 10)
        j, _ = check_exec.find(d, orc)
        self.assertIsNone(check_exec.damage_site(d, orc, j))
        self.assertFalse(check_exec.caught(d, orc, j))

    def test_recurring_stretch_damaged_decode_refused(self):
        # An idle CPU's wake-up path, the same runs each time: a damaged
        # record still holds another copy of the stretch, so the damage
        # goes to the decode, which no stretch of the record matches.
        wake = [run(i) for i in range(1, 9)]
        orc = wake + [SPIN] * 5 + wake + [SPIN] * 5 + wake
        d = dec(wake)
        j, why = check_exec.find(d, orc)
        self.assertIsNotNone(j, why)
        self.assertFalse(check_exec.caught(d, orc, j))
        self.assertTrue(check_exec.caught_in_decode(d, orc))

    def test_damaged_decode_matching_too_proves_nothing(self):
        # A record holding the run both as it is and one instruction
        # longer: the damaged decode matches too.
        long4 = [run(4)[0], run(4)[1] + 4]
        orc = [run(i) for i in range(1, 7)] + [run(1), run(2), run(3), long4] + \
            [run(i) for i in range(5, 7)] + [run(i) for i in range(1, 7)]
        d = dec([run(i) for i in range(1, 7)])
        j, _ = check_exec.find(d, orc)
        self.assertFalse(check_exec.caught(d, orc, j))
        self.assertFalse(check_exec.caught_in_decode(d, orc))

    def test_short_decode_has_nothing_to_damage(self):
        orc = [run(i) for i in range(5)] * 3
        self.assertFalse(check_exec.caught_in_decode(dec([run(1), run(2)]), orc))


class Branch(unittest.TestCase):
    """B and BL targets, as objdump printed them for the kernel-hw build."""

    def test_bl_forward(self):
        # ffff800008018b9c: 940a3516  bl ffff8000082a5ff4 <report_bug>
        self.assertEqual(check_exec.branch_target(0x940a3516, 0xffff800008018b9c),
                         0xffff8000082a5ff4)

    def test_b_backward(self):
        # a B of imm26 -2: two words back
        self.assertEqual(check_exec.branch_target(0x17fffffe, 0x1000), 0x1000 - 8)

    def test_other_instructions(self):
        for word in (0x7100041f, 0x54000140, 0xd65f03c0, 0x94000000 | 0x80000000 >> 1):
            self.assertIsNone(check_exec.branch_target(word, 0x1000), hex(word))
        self.assertIsNone(check_exec.branch_target(None, 0x1000))


class TrbeLog(unittest.TestCase):
    """models.trbe_last_run: what a TRBE wrote from its last start to its
    stop, by QEMU's coresight_trbe_enable lines (from a CI run's log)."""

    LOG = """coresight_trbe_enable cpu 1: enable 1, 0 bytes written, 0 discarded so far
coresight_trbe_enable cpu 2: enable 1, 0 bytes written, 0 discarded so far
coresight_trbe_event cpu 1: TRBSR 0x520001, TRBPTR 0xffff800009a89000
coresight_trbe_enable cpu 1: enable 0, 524288 bytes written, 1034 discarded so far
coresight_trbe_enable cpu 1: enable 1, 524288 bytes written, 1034 discarded so far
coresight_trbe_enable cpu 1: enable 0, 527940 bytes written, 1034 discarded so far
coresight_trbe_enable cpu 11: enable 0, 99 bytes written, 0 discarded so far
"""

    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.path = os.path.join(self.tmp, 'qemu.log')
        with open(self.path, 'w') as f:
            f.write(self.LOG)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_last_run(self):
        # 3,652 bytes: a TRBE perf had restarted just before the panic.
        self.assertEqual(models.trbe_last_run(self.path, 1), 3652)

    def test_not_stopped_after_its_last_start(self):
        self.assertIsNone(models.trbe_last_run(self.path, 2))

    def test_never_started(self):
        self.assertIsNone(models.trbe_last_run(self.path, 3))


if __name__ == '__main__':
    unittest.main()
