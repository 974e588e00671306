package citekey

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// maxSuffix bounds Unique's search: after key_<maxSuffix> it gives up.
const maxSuffix = 100000

// Unique returns the first candidate that taken reports free, trying key,
// then key+"a" … key+"z", then key+"_27", key+"_28", … (the seed's collision
// rule: vaswani2017attention → vaswani2017attentiona → … →
// vaswani2017attention_27).
//
// Keys compare case-insensitively (Vaswani2017 and vaswani2017 collide, since
// keys name files on case-insensitive file systems). Unique passes each
// candidate to taken unchanged; taken must answer case-insensitively, for
// example by keeping a set of strings.ToLower(key) and looking up
// strings.ToLower(candidate). taken is called synchronously on the caller's
// goroutine, at most once per candidate, in the order above.
//
// Unique returns an error when key fails Valid, when a candidate would be
// longer than MaxLen, or when every candidate up to key_100000 is taken.
func Unique(key string, taken func(string) bool) (string, error) {
	if err := Valid(key); err != nil {
		return "", err
	}
	if taken == nil {
		return "", errors.New("unique cite key: nil taken func")
	}
	for n := 0; n <= maxSuffix; n++ {
		c := key
		switch {
		case n == 0:
		case n <= 26:
			c = key + string(rune('a'+n-1))
		default:
			c = key + "_" + strconv.Itoa(n)
		}
		if len(c) > MaxLen {
			return "", fmt.Errorf("unique cite key %q: candidate %q is longer than %d characters", key, c, MaxLen)
		}
		if !taken(c) {
			return c, nil
		}
	}
	return "", fmt.Errorf("unique cite key %q: all candidates up to %s_%d are taken", key, key, maxSuffix)
}

// Valid reports whether key is acceptable as a user-supplied cite key
// (--cite-key): 1 to MaxLen characters from A–Z a–z 0–9 _ - : . , starting
// with a letter or digit and not containing "..". Such a key cannot hold a path
// separator. The error (wrapping ErrInvalid) names the offending character
// or rule and says what is allowed.
func Valid(key string) error {
	const allowed = `use 1-100 characters from A-Z a-z 0-9 _ - : . , starting with a letter or digit and without ".."`
	switch {
	case key == "":
		return fmt.Errorf("%w: empty; %s", ErrInvalid, allowed)
	case len(key) > MaxLen:
		return fmt.Errorf("%w %q: %d characters; %s", ErrInvalid, key, len(key), allowed)
	case !(key[0] >= 'a' && key[0] <= 'z' || key[0] >= 'A' && key[0] <= 'Z' || key[0] >= '0' && key[0] <= '9'):
		// "-x" would read as an option on a command line, ".x" as a
		// hidden file.
		return fmt.Errorf("%w %q: starts with %q; %s", ErrInvalid, key, key[:1], allowed)
	case strings.Contains(key, ".."):
		return fmt.Errorf("%w %q: contains \"..\"; %s", ErrInvalid, key, allowed)
	}
	for _, r := range key {
		if !isSafeRune(r) && r != ':' && r != '.' {
			return fmt.Errorf("%w %q: character %q not allowed; %s", ErrInvalid, key, r, allowed)
		}
	}
	return nil
}

// ErrInvalid is wrapped by Valid's errors.
var ErrInvalid = errors.New("invalid cite key")
