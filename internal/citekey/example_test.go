package citekey_test

import (
	"fmt"
	"strings"

	"github.com/crossmem/crossmem/internal/citekey"
	"github.com/crossmem/crossmem/internal/metadata"
)

func ExampleMake() {
	rec := &metadata.Record{
		Title:   "Attention Is All You Need",
		Authors: []metadata.Name{{Family: "Vaswani", Given: "Ashish"}, {Family: "Shazeer", Given: "Noam"}},
		Issued:  metadata.Date{Year: 2017},
	}
	for _, p := range []string{citekey.Default(), "[authors:lower][year]", "[auth:lower]_[year][shorttitle:3]"} {
		key, err := citekey.Make(p, rec)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(key)
	}
	// Output:
	// vaswani2017attention
	// vaswanishazeer2017
	// vaswani_2017attentionneed
}

func ExampleUnique() {
	existing := map[string]bool{"vaswani2017attention": true, "vaswani2017attentiona": true}
	key, err := citekey.Unique("Vaswani2017Attention", func(c string) bool {
		return existing[strings.ToLower(c)]
	})
	fmt.Println(key, err)
	// Output: Vaswani2017Attentionb <nil>
}
