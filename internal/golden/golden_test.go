package golden

import "testing"

func TestDiff(t *testing.T) {
	for _, tc := range []struct{ name, want, got, diff string }{
		{"equal", "a\nb\n", "a\nb\n", ""},
		{"changed line", "a\nb\nc\nd\ne\nf\ng", "a\nb\nc\nX\ne\nf\ng", "@@ line 2 @@\n  b\n  c\n- d\n+ X\n  e\n  f\n"},
		{"inserted line", "a\nb", "a\nnew\nb", "@@ line 1 @@\n  a\n+ new\n  b\n"},
		{"removed line", "a\nold\nb", "a\nb", "@@ line 1 @@\n  a\n- old\n  b\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9", "1\nX\n3\n4\n5\n6\n7\nY\n9", "@@ line 1 @@\n  1\n- 2\n+ X\n  3\n  4\n@@ line 6 @@\n  6\n  7\n- 8\n+ Y\n  9\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Diff(tc.want, tc.got); got != tc.diff {
				t.Errorf("Diff =\n%s\nwant\n%s", got, tc.diff)
			}
		})
	}
}
