package cli

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/spf13/cobra"
)

// TestCommandShape checks that every verb has the package's command shape
// (see the package doc): newXCommand(a *app) *cobra.Command, a struct
// xOptions with an app field, and runX(ctx context.Context, o *xOptions)
// error, in one file; that there is one such verb per runnable command of
// the command tree; and that ARCHITECTURE.md's Commands table lists each.
func TestCommandShape(t *testing.T) {
	fset := token.NewFileSet()
	paths, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	funcs := map[string]*ast.FuncDecl{}
	types := map[string]*ast.TypeSpec{}
	file := map[string]string{}
	for _, name := range paths {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					funcs[d.Name.Name] = d
					file[d.Name.Name] = name
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						types[ts.Name.Name] = ts
						file[ts.Name.Name] = name
					}
				}
			}
		}
	}
	newCmd := regexp.MustCompile(`^new(\w+)Command$`)
	verbs := 0
	for name, fn := range funcs {
		m := newCmd.FindStringSubmatch(name)
		if m == nil {
			continue
		}
		x := m[1]
		if callsGroupCommand(fn) {
			continue // a group of verbs, not a verb
		}
		verbs++
		if !hasParams(fn, "*app") || !returns(fn, "*cobra.Command") {
			t.Errorf("%s: want func %s(a *app) *cobra.Command", name, name)
		}
		opts := lowerInitial(x) + "Options"
		ts, ok := types[opts]
		if !ok {
			t.Errorf("%s: no type %s", name, opts)
			continue
		}
		if st, ok := ts.Type.(*ast.StructType); !ok || !hasField(st, "app", "*app") {
			t.Errorf("%s: want a struct with the field app *app", opts)
		}
		run, ok := funcs["run"+x]
		if !ok {
			t.Errorf("%s: no func run%s", name, x)
			continue
		}
		if !hasParams(run, "context.Context", "*"+opts) || !returns(run, "error") {
			t.Errorf("run%s: want func run%s(ctx context.Context, o *%s) error", x, x, opts)
		}
		if file[opts] != file[name] || file["run"+x] != file[name] {
			t.Errorf("%s, %s and run%s are not in one file (%s, %s, %s)", name, opts, x, file[name], file[opts], file["run"+x])
		}
	}

	var leaves []string
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		if len(c.Commands()) == 0 {
			leaves = append(leaves, c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRoot(&app{}))
	if verbs != len(leaves) {
		t.Errorf("%d newXCommand verbs for %d runnable commands %v", verbs, len(leaves), leaves)
	}
	arch, err := os.ReadFile(filepath.Join("..", "..", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range leaves {
		if !strings.Contains(string(arch), "| `"+l+"` |") {
			t.Errorf("ARCHITECTURE.md's Commands table has no row for `%s`", l)
		}
	}
}

func callsGroupCommand(fn *ast.FuncDecl) bool {
	found := false
	ast.Inspect(fn, func(n ast.Node) bool {
		if c, ok := n.(*ast.CallExpr); ok {
			if id, ok := c.Fun.(*ast.Ident); ok && id.Name == "groupCommand" {
				found = true
			}
		}
		return !found
	})
	return found
}

func typeString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.StarExpr:
		return "*" + typeString(e.X)
	case *ast.SelectorExpr:
		return typeString(e.X) + "." + e.Sel.Name
	}
	return "?"
}

func hasParams(fn *ast.FuncDecl, want ...string) bool {
	var got []string
	for _, f := range fn.Type.Params.List {
		for range max(1, len(f.Names)) {
			got = append(got, typeString(f.Type))
		}
	}
	return strings.Join(got, ",") == strings.Join(want, ",")
}

func returns(fn *ast.FuncDecl, want string) bool {
	r := fn.Type.Results
	return r != nil && len(r.List) == 1 && typeString(r.List[0].Type) == want
}

func hasField(st *ast.StructType, name, typ string) bool {
	for _, f := range st.Fields.List {
		for _, n := range f.Names {
			if n.Name == name && typeString(f.Type) == typ {
				return true
			}
		}
	}
	return false
}

// lowerInitial lower-cases x's leading capital, or its leading initialism
// (MCPServe → mcpServe).
func lowerInitial(x string) string {
	r := []rune(x)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) {
		i++
	}
	if i > 1 && i < len(r) {
		i-- // the last capital starts the next word
	}
	for j := 0; j < i || j == 0; j++ {
		r[j] = unicode.ToLower(r[j])
	}
	return string(r)
}
