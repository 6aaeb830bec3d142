/*
 * For tests/decode/perfimage.sh: a function in an executable section other
 * than .text, as a kernel has code in .init.text, .head.text, .rodata.text.
 */
int f_alpha(int x);
int f_init(int x);

__attribute__((section(".init.text"), noinline)) int f_init(int x)
{
	int i, s = 0;

	for (i = 0; i < x; i++)
		s += f_alpha(i) ^ i;
	return s;
}
