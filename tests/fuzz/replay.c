/* SPDX-License-Identifier: MIT */
/*
 * A main for a fuzz target without libFuzzer: each argument is an input
 * file or a folder of them, fed once to LLVMFuzzerTestOneInput, the way
 * `fuzz_X -runs=0 FOLDER` replays them. A violated property aborts (the
 * target's CHECK), so the test fails. tests/meson.build builds one per
 * target with regressions and runs it on tests/fuzz/regressions/<target>
 * in every build (gcc, the Windows cross build), not only in the clang
 * fuzz builds: a fixed finding stays fixed under `meson test`.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads path whole into a buffer of exactly its size (ASan then sees a
 * read past the input) and feeds it to the target; -1 when unreadable. */
static int
replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *data;
	long len;

	if (f == NULL)
		return -1;
	if (fseek(f, 0, SEEK_END) != 0 || (len = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) != 0 ||
	    (data = malloc(len > 0 ? (size_t)len : 1)) == NULL) {
		fclose(f);
		return -1;
	}
	if (fread(data, 1, (size_t)len, f) != (size_t)len) {
		free(data);
		fclose(f);
		return -1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(data, (size_t)len);
	free(data);
	printf("replayed %s (%ld bytes)\n", path, len);
	return 0;
}

int
main(int argc, char **argv)
{
	unsigned files = 0;

	for (int i = 1; i < argc; i++) {
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		if (d == NULL) {
			if (replay_file(argv[i]) < 0) {
				fprintf(stderr, "cannot read %s\n", argv[i]);
				return 1;
			}
			files++;
			continue;
		}
		while ((e = readdir(d)) != NULL) {
			char path[4096];
			if (e->d_name[0] == '.')
				continue;
			snprintf(path, sizeof path, "%s/%s", argv[i],
				 e->d_name);
			if (replay_file(path) < 0) {
				fprintf(stderr, "cannot read %s\n", path);
				closedir(d);
				return 1;
			}
			files++;
		}
		closedir(d);
	}
	printf("%u inputs replayed\n", files);
	return files > 0 ? 0 : 1;
}
