package citation_test

import (
	"fmt"

	"github.com/crossmem/crossmem/internal/citation"
	"github.com/crossmem/crossmem/internal/csl"
)

func ExampleFormat() {
	it := csl.Item{
		ID:             "bran2024augmenting",
		Type:           "article-journal",
		Title:          "Augmenting large language models with chemistry tools",
		Author:         []csl.Name{{Family: "Bran", Given: "Andres M."}, {Family: "Cox", Given: "Sam"}},
		Issued:         &csl.Date{DateParts: [][]csl.Number{{"2024", "5", "8"}}},
		ContainerTitle: "Nature Machine Intelligence",
		Volume:         "6",
		Issue:          "5",
		Page:           "525-535",
		DOI:            "10.1038/s42256-024-00832-8",
	}
	for _, st := range []citation.Style{citation.APA, citation.MLA, citation.Chicago, citation.ChicagoAuthorDate, citation.IEEE, citation.BibTeX} {
		s, err := citation.Format(it, st)
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
	// Bran, Andres M., and Sam Cox. 2024. “Augmenting Large Language Models with Chemistry Tools.” Nature Machine Intelligence 6 (5): 525–35. https://doi.org/10.1038/s42256-024-00832-8.
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

func ExampleFormatWith() {
	it := csl.Item{
		ID:     "muller2020uber",
		Type:   "article",
		Title:  "Über Straßen in Zürich",
		Author: []csl.Name{{Family: "Müller", Given: "Jürgen"}, {Family: "Putten", Given: "Joost", NonDroppingParticle: "van der"}},
		Issued: &csl.Date{DateParts: [][]csl.Number{{"2020", "3", "1"}}},
		Number: "arXiv:2003.00001",
	}
	s, err := citation.FormatWith(it, citation.BibLaTeX, citation.Options{Unicode: citation.UnicodeLaTeX})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s)
	// Output:
	// @online{muller2020uber,
	//   title = {{\"U}ber Stra{\ss}en in Z{\"u}rich},
	//   author = {M{\"u}ller, J{\"u}rgen and van der Putten, Joost},
	//   date = {2020-03-01},
	//   eprint = {2003.00001},
	//   eprinttype = {arxiv}
	// }
}
