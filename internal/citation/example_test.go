package citation_test

import (
	"fmt"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/metadata"
)

func ExampleFormat() {
	rec := &metadata.Record{
		Type:           "article-journal",
		Title:          "Augmenting large language models with chemistry tools",
		Authors:        []metadata.Name{{Family: "Bran", Given: "Andres M."}, {Family: "Cox", Given: "Sam"}},
		Issued:         metadata.Date{Year: 2024, Month: 5, Day: 8},
		ContainerTitle: "Nature Machine Intelligence",
		Volume:         "6",
		Issue:          "5",
		Page:           "525-535",
		DOI:            "10.1038/s42256-024-00832-8",
	}
	for _, st := range citation.Styles() {
		s, err := citation.Format(rec, "bran2024augmenting", st)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Println(s)
	}
	// Output:
	// Bran, A. M., & Cox, S. (2024). Augmenting large language models with chemistry tools. Nature Machine Intelligence, 6(5), 525–535. https://doi.org/10.1038/s42256-024-00832-8
	// Bran, Andres M., and Sam Cox. “Augmenting Large Language Models with Chemistry Tools.” Nature Machine Intelligence, vol. 6, no. 5, May 2024, pp. 525–35, https://doi.org/10.1038/s42256-024-00832-8.
	// Bran, Andres M., and Sam Cox. “Augmenting Large Language Models with Chemistry Tools.” Nature Machine Intelligence 6, no. 5 (2024): 525–35. https://doi.org/10.1038/s42256-024-00832-8.
	// A. M. Bran and S. Cox, “Augmenting large language models with chemistry tools,” Nature Machine Intelligence, vol. 6, no. 5, pp. 525–535, May 2024, doi: 10.1038/s42256-024-00832-8.
	// @article{bran2024augmenting,
	//   title = {Augmenting large language models with chemistry tools},
	//   author = {Bran, Andres M. and Cox, Sam},
	//   year = {2024},
	//   month = may,
	//   journal = {Nature Machine Intelligence},
	//   volume = {6},
	//   number = {5},
	//   pages = {525--535},
	//   doi = {10.1038/s42256-024-00832-8}
	// }
}
