package hint

import (
	"errors"
	"fmt"
	"testing"
)

type typed struct{ key string }

func (e typed) Error() string { return "typed" }
func (e typed) Hint() Action  { return Action{Kind: Compile, Key: e.key} }

func TestOf(t *testing.T) {
	base := errors.New("index damaged")
	err := fmt.Errorf("open: %w", Wrap(base, Action{Kind: RebuildIndex}))
	if a, ok := Of(err); !ok || a.Kind != RebuildIndex {
		t.Errorf("wrapped: %+v %v", a, ok)
	}
	if !errors.Is(err, base) || err.Error() != "open: index damaged" {
		t.Errorf("the hint changed the error: %v", err)
	}
	if a, ok := Of(fmt.Errorf("x: %w", typed{"k"})); !ok || a.Key != "k" {
		t.Errorf("Hinter: %+v %v", a, ok)
	}
	if _, ok := Of(base); ok {
		t.Error("a plain error has a hint")
	}
	if _, ok := Of(Wrap(base, Action{})); ok {
		t.Error("None is a hint")
	}
	if Wrap(nil, Action{Kind: Compile}) != nil {
		t.Error("Wrap(nil) is not nil")
	}
}
