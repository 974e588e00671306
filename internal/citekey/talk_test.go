package citekey

import "testing"

func TestTalk(t *testing.T) {
	for _, c := range []struct {
		channel string
		year    int
		title   string
		want    string
	}{
		// The seed's examples.
		{"3Blue1Brown", 2017, "But what is a neural network? | Deep learning chapter 1", "3blue1brown2017neural"},
		{"Andrej Karpathy", 2023, "Let's build GPT: from scratch, in code, spelled out.", "andrejkarpathy2023gpt"},
		{"Two Minute Papers", 2024, "OpenAI Sora", "twominutepapers2024sora"},
		// Others.
		{"Institut für Sehr Lange Kanalnamen e.V.", 2020, "Über Graphen", "institutfursehrlange2020uber"},
		{"", 0, "How to Pre-train", "pretrain"},
		{"Ch", 2021, "", "ch2021talk"},
		{"", 0, "", "talk"},
		{"-", 0, "What is", "what"},
	} {
		got := Talk(c.channel, c.year, c.title)
		if got != c.want {
			t.Errorf("Talk(%q, %d, %q) = %q, want %q", c.channel, c.year, c.title, got, c.want)
		}
		if err := Valid(got); err != nil {
			t.Errorf("Talk(%q): %v", c.title, err)
		}
	}
}
