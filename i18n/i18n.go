// Package i18n holds the embedded message catalogs, one per language of
// core.Langs (es, el, en), and
// translates message keys with github.com/nicksnyder/go-i18n/v2.
//
// Catalogs are TOML files named <area>.<lang>.toml under locales/, one area
// per part of the bot (core, dice, odds, systems, character, help, telegram,
// matrix: the files under locales/ are the list; any new area is loaded
// without a code change), with flat quoted keys: "roll.total" = "Total: {{.total}}". Every key exists in
// all three languages (a test checks it). Missing keys fall back to English,
// then to the key itself: a translation is never "".
package i18n

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"text/template"

	"github.com/BurntSushi/toml"
	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"zaria/core"
)

//go:embed locales/*.toml
var catalogs embed.FS

// fallback is the language a key missing in another language falls back
// to (then the key itself). It is not the chats' default language, which
// is core.DefaultLang or the config's.
const fallback = "en"

// Catalog translates keys. It is safe for concurrent use.
type Catalog struct {
	bundle     *goi18n.Bundle
	localizers map[string]*goi18n.Localizer
	keys       map[string]map[string]bool // lang → keys
}

// Load reads the embedded catalogs.
func Load() (*Catalog, error) { return LoadFS(catalogs, "locales") }

// LoadFS reads every <area>.<lang>.toml file of dir in fsys.
func LoadFS(fsys fs.FS, dir string) (*Catalog, error) {
	b := goi18n.NewBundle(language.English)
	b.RegisterUnmarshalFunc("toml", toml.Unmarshal)
	c := &Catalog{bundle: b, localizers: map[string]*goi18n.Localizer{}, keys: map[string]map[string]bool{}}
	entries, err := fs.ReadDir(fsys, dir)
	if err != nil {
		return nil, fmt.Errorf("read catalogs: %w", err)
	}
	for _, e := range entries {
		if e.IsDir() || !strings.HasSuffix(e.Name(), ".toml") {
			continue
		}
		p := path.Join(dir, e.Name())
		mf, err := b.LoadMessageFileFS(fsys, p)
		if err != nil {
			return nil, fmt.Errorf("catalog %s: %w", p, err)
		}
		lang := mf.Tag.String()
		if c.keys[lang] == nil {
			c.keys[lang] = map[string]bool{}
		}
		for _, m := range mf.Messages {
			if c.keys[lang][m.ID] {
				return nil, fmt.Errorf("catalog %s: key %q defined twice for %s", p, m.ID, lang)
			}
			c.keys[lang][m.ID] = true
		}
	}
	for _, l := range core.Langs() {
		c.localizers[l] = goi18n.NewLocalizer(b, l, fallback)
	}
	return c, nil
}

// Keys returns the sorted keys of one language.
func (c *Catalog) Keys(lang string) []string {
	out := make([]string, 0, len(c.keys[lang]))
	for k := range c.keys[lang] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// funcs are the template functions a catalog line may use: vocative
// (vocative.go).
var funcs = template.FuncMap{"vocative": vocative}

// Translate renders key in lang with args. A "count" argument selects the
// plural form. It never returns "".
func (c *Catalog) Translate(lang, key string, args map[string]any) string {
	l, ok := c.localizers[lang]
	if !ok {
		l = c.localizers[fallback]
	}
	cfg := &goi18n.LocalizeConfig{MessageID: key, TemplateData: args, Funcs: funcs}
	if n, ok := args["count"]; ok {
		cfg.PluralCount = n
	}
	s, err := l.Localize(cfg)
	if err != nil || s == "" {
		if s != "" {
			return s // fallback language's text
		}
		return key
	}
	return s
}
