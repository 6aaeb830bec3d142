// SPDX-License-Identifier: GPL-2.0
/*
 * A small freestanding arm64 program for the encoder's round trip: loops,
 * switches (jump tables: BR), calls through pointers (BLR), recursion,
 * conditional branches of every kind (B.cond, CBZ/CBNZ, TBZ/TBNZ). It is
 * never run: the random walk only follows its control flow.
 */
typedef unsigned long u64;

static volatile u64 sink;

__attribute__((noinline)) static u64 mix(u64 a, u64 b)
{
	if (a & (1ul << 13))
		return a ^ (b << 3);
	return a + b * 7;
}

__attribute__((noinline)) static u64 collatz(u64 n)
{
	u64 steps = 0;

	while (n != 1 && steps < 1000) {
		n = (n & 1) ? 3 * n + 1 : n / 2;
		steps++;
	}
	return steps;
}

__attribute__((noinline)) static u64 fib(u64 n)
{
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

__attribute__((noinline)) static u64 classify(u64 v)
{
	switch (v % 11) {
	case 0: return mix(v, 1);
	case 1: return collatz(v + 3);
	case 2: return v * 5;
	case 3: return fib(v & 15);
	case 4: return v >> 2;
	case 5: return mix(v, v);
	case 6: return v ^ 0x5555;
	case 7: return collatz(v);
	case 8: return v - 9;
	case 9: return v | 0x100;
	default: return 0;
	}
}

typedef u64 (*op_fn)(u64);

__attribute__((noinline)) static u64 op_a(u64 v) { return classify(v) + 1; }
__attribute__((noinline)) static u64 op_b(u64 v) { return v ? fib(v & 7) : 3; }
__attribute__((noinline)) static u64 op_c(u64 v) { return mix(v, collatz(v | 1)); }

static op_fn const ops[] = { op_a, op_b, op_c };

__attribute__((noinline)) static u64 sum_bits(const u64 *p, int n)
{
	u64 s = 0;

	for (int i = 0; i < n; i++) {
		if (p[i] & 0x80)
			s += p[i];
		else if (!p[i])
			continue;
		else
			s ^= p[i] << 1;
	}
	return s;
}

__attribute__((noinline)) static void run(u64 seed)
{
	u64 buf[16];

	for (int i = 0; i < 16; i++) {
		seed = seed * 6364136223846793005ul + 1442695040888963407ul;
		buf[i] = seed >> 40;
		if (buf[i] & 4)
			buf[i] = ops[buf[i] % 3](buf[i]);
	}
	sink = sum_bits(buf, 16);
}

void _start(void)
{
	for (u64 i = 0;; i++)
		run(i);
}
