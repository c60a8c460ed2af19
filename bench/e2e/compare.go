package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"zaria/adapters/telegram/telegramtest"
	"zaria/bench/e2e/botproc"
	"zaria/core/sheet"
)

// run is one binary the phases run against.
type run struct {
	label string // "base d796621", "this tree"; "" alone
	bin   string
}

// figure is one number a phase measured.
type figure struct {
	name   string
	v      float64
	higher bool // higher is better (a rate); else lower is
}

// phaseFigures are a phase's figures, one list per run.
type phaseFigures struct {
	phase string
	runs  [][]figure
}

// num writes a figure, "–" when there is none (0).
func num(v float64) string {
	if v == 0 {
		return "–"
	}
	return fmt.Sprintf("%.2f", v)
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// baseBinary is the zaria binary of o.base: o.baseBin when given, else
// built from the ref's files (botproc.BuildRef).
func baseBinary(o options) (string, func(), error) {
	if o.baseBin != "" {
		bin, err := filepath.Abs(o.baseBin)
		return bin, func() {}, err
	}
	return botproc.BuildRef(o.base)
}

// seedByImport fills dbPath with the memory phase's chats through the
// binary's own /importar: a bot on fake, one export document (version 1)
// per chat sent by the chat's administrator, then stopped. It returns how
// many imports were refused (their reply a warning).
func seedByImport(o options, fake *telegramtest.Server, dir, dbPath string) (int, error) {
	p, err := bot(o, dir, dbPath, fake, unlimited)
	if err != nil {
		return 0, err
	}
	defer p.Kill()
	const admin = 99_000_001
	now := time.Now().UTC().Truncate(time.Second)
	for c := 0; c < o.memChats; c++ {
		doc, err := exportV1(seedChat(c, o.memChats, o.memChars, now).Characters, now)
		if err != nil {
			return 0, err
		}
		chat := -int64(2_000_000 + c)
		fake.SetAdmins(chat, admin)
		fake.Say(chat, admin, "Admin", "es", "/importar "+doc)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Minute)
	defer cancel()
	if err := fake.WaitSent(ctx, o.memChats); err != nil {
		fmt.Println(lastLines(p.Logs(), 20))
		return 0, err
	}
	refused := 0
	for _, s := range fake.Sent() {
		if strings.HasPrefix(s.Visible, "⚠️") {
			if refused == 0 {
				fmt.Printf("  an import was refused: %s\n", s.Visible)
			}
			refused++
		}
	}
	if _, err := p.Stop(15 * time.Second); err != nil {
		return refused, fmt.Errorf("stop after seeding: %w", err)
	}
	return refused, nil
}

// exportV1 writes characters as an /exportar document of version 1, the
// first, which every version of /importar reads.
func exportV1(chars []sheet.Character, now time.Time) (string, error) {
	type value struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	}
	type character struct {
		Name      string  `json:"name"`
		Owner     string  `json:"owner"`
		OwnerName string  `json:"owner_name,omitempty"`
		System    string  `json:"system,omitempty"`
		Active    bool    `json:"active,omitempty"`
		Values    []value `json:"values,omitempty"`
	}
	doc := struct {
		Format     string            `json:"format"`
		Version    int               `json:"version"`
		Exported   time.Time         `json:"exported"`
		Settings   map[string]string `json:"settings"`
		Characters []character       `json:"characters"`
	}{Format: "zaria-chat", Version: 1, Exported: now, Settings: map[string]string{"lang": "es"}}
	for _, c := range chars {
		ch := character{Name: c.Name, Owner: c.Owner, OwnerName: c.OwnerName, System: c.System, Active: c.Active}
		for _, v := range c.Values {
			ch.Values = append(ch.Values, value{Name: v.Name, Value: v.Text})
		}
		doc.Characters = append(doc.Characters, ch)
	}
	b, err := json.Marshal(doc)
	return string(b), err
}

// printRatios prints every figure of both runs side by side with its
// ratio to the base's, and whether that is better or worse.
func printRatios(w io.Writer, base string, table []phaseFigures) {
	fmt.Fprintf(w, "\n== this tree against %s, same machine, same run (ratio = this tree ÷ base)\n", base)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "phase\tfigure\t%s\tthis tree\tratio\t\t\n", base)
	for _, pf := range table {
		if len(pf.runs) != 2 {
			continue
		}
		for i, f := range pf.runs[0] {
			if i >= len(pf.runs[1]) {
				break
			}
			b, h := f.v, pf.runs[1][i].v
			ratio, verdict := "–", ""
			if b > 0 && h > 0 {
				r := h / b
				ratio = fmt.Sprintf("%.2f", r)
				switch better := r > 1 == f.higher; {
				case r > 0.95 && r < 1.05:
					verdict = "same (±5 %)"
				case better:
					verdict = "better"
				default:
					verdict = "worse"
				}
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", pf.phase, f.name, num(b), num(h), ratio, verdict)
		}
	}
	tw.Flush()
}
