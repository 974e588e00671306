package cli

import (
	"strings"

	"github.com/spf13/cobra"
)

// completeKeys completes a cite key argument (shell completion: crossmem
// completion bash|zsh|fish|powershell) with the library's cite keys and
// aliases that begin with what was typed, each with its title.
func completeKeys(a *app) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, argv []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(argv) > 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return keyCompletions(a, toComplete), cobra.ShellCompDirectiveNoFileComp
	}
}

// keyCompletions are the cite keys and aliases beginning with prefix, as
// "key\ttitle".
func keyCompletions(a *app, prefix string) []string {
	lib, err := a.library()
	if err != nil {
		return nil
	}
	papers, _ := lib.Papers()
	var out []string
	for _, p := range papers {
		for _, k := range append([]string{p.CiteKey}, p.Aliases...) {
			if strings.HasPrefix(k, prefix) {
				out = append(out, k+"\t"+strings.Join(strings.Fields(p.Title), " "))
			}
		}
	}
	return out
}
