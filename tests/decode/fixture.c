/* A program for tests/decode/symbols.sh: functions at addresses nm knows. */
int f_alpha(int x);
int f_beta(int x);
int f_gamma(int x);

int f_alpha(int x)
{
	int y = x * 3;

	y += x >> 2;
	return y ^ 0x55;
}

int f_beta(int x)
{
	int i, s = 0;

	for (i = 0; i < x; i++)
		s += f_alpha(i);
	return s;
}

int f_gamma(int x)
{
	return f_beta(x) - f_alpha(x);
}

int main(int argc, char **argv)
{
	(void)argv;
	return f_gamma(argc) & 1;
}
