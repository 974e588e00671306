package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	"github.com/crossmem/crossmem/internal/pdf"
)

func main() {
	e, err := pdf.Open(context.Background(), pdf.Options{CacheDir: os.ExpandEnv("$HOME/.cache/crossmem/wazero")})
	if err != nil {
		panic(err)
	}
	defer e.Close()
	d, err := e.OpenFile(os.Args[1])
	if err != nil {
		panic(err)
	}
	n, _ := strconv.Atoi(os.Args[2])
	p, err := d.Page(n)
	if err != nil {
		panic(err)
	}
	fmt.Printf("W=%v H=%v rot=%d chars=%d\n", p.Width, p.Height, p.Rotation, len(p.Chars))
	for i, c := range p.Chars {
		fmt.Printf("%d %q %v gen=%v hy=%v f=%d s=%.1f\n", i, c.Rune, c.Box, c.Generated, c.Hyphen, c.Font, c.Size)
	}
}
