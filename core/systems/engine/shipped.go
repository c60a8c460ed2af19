package engine

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
)

//go:embed files/*.yaml
var shipped embed.FS

// Shipped lists the systems built into the binary, by key.
func Shipped() []string {
	ents, _ := fs.ReadDir(shipped, "files")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".yaml"))
	}
	sort.Strings(out)
	return out
}

// ShippedSource is a shipped file as it is in the binary.
func ShippedSource(key string) ([]byte, bool) {
	b, err := shipped.ReadFile(path.Join("files", key+".yaml"))
	return b, err == nil
}

var (
	loadOnce sync.Mutex
	loaded   = map[string]*System{}
)

// Builtin returns a shipped system, loaded once. A shipped file that does
// not load is a bug of the build: the tests load each.
func Builtin(key string) (*System, error) {
	loadOnce.Lock()
	defer loadOnce.Unlock()
	if s := loaded[key]; s != nil {
		return s, nil
	}
	b, ok := ShippedSource(key)
	if !ok {
		return nil, fmt.Errorf("engine: no shipped system %q", key)
	}
	s, err := Load(b)
	if err != nil {
		return nil, fmt.Errorf("engine: shipped %s: %w", key, err)
	}
	loaded[key] = s
	return s, nil
}

// MustBuiltin is Builtin for the systems' packages, whose files the tests
// load: it panics on a file that does not.
func MustBuiltin(key string) *System {
	s, err := Builtin(key)
	if err != nil {
		panic(err)
	}
	return s
}

// BookOr is s, or the shipped file key when s is nil: a system's package
// plays a chat's fork, or the book when the chat has none.
func BookOr(s *System, key string) *System {
	if s == nil {
		return MustBuiltin(key)
	}
	return s
}
