package main

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"zaria/bench/e2e/botproc"
)

// profiler fetches a phase's CPU and heap profiles from the bot's ops
// listener (http.pprof, ZARIA_HTTP_PPROF) into o.profile: the CPU profile
// over the first o.profSeconds of the load, the heap once the replies are
// in. A binary without the switch (an older base) answers 404: noted,
// nothing saved.
type profiler struct {
	o    options
	p    *botproc.Proc
	name string
	cpu  chan struct{}
}

// startProfile begins the phase's CPU profile; stop with heap.
func startProfile(o options, p *botproc.Proc, phase string) *profiler {
	if o.profile == "" {
		return nil
	}
	name := phase
	if o.label != "" {
		name += "-" + strings.NewReplacer(" ", "-", "/", "-").Replace(o.label)
	}
	pr := &profiler{o: o, p: p, name: name, cpu: make(chan struct{})}
	go func() {
		defer close(pr.cpu)
		pr.save(fmt.Sprintf("/debug/pprof/profile?seconds=%d", o.profSeconds), "cpu", time.Duration(o.profSeconds+30)*time.Second)
	}()
	return pr
}

// heap saves the heap profile (in use and allocated since the start) and
// waits for the CPU profile.
func (pr *profiler) heap() {
	if pr == nil {
		return
	}
	pr.save("/debug/pprof/heap?gc=1", "heap", 30*time.Second)
	<-pr.cpu
}

func (pr *profiler) save(path, kind string, timeout time.Duration) {
	c := http.Client{Timeout: timeout}
	res, err := c.Get(pr.p.Metrics + path)
	if err != nil {
		fmt.Printf("  profile %s: %v\n", kind, err)
		return
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		fmt.Printf("  profile %s: %s (a binary without http.pprof)\n", kind, res.Status)
		return
	}
	if err := os.MkdirAll(pr.o.profile, 0o755); err != nil {
		fmt.Printf("  profile %s: %v\n", kind, err)
		return
	}
	file := filepath.Join(pr.o.profile, pr.name+"-"+kind+".pprof")
	f, err := os.Create(file)
	if err != nil {
		fmt.Printf("  profile %s: %v\n", kind, err)
		return
	}
	defer f.Close()
	if _, err := io.Copy(f, res.Body); err != nil {
		fmt.Printf("  profile %s: %v\n", kind, err)
		return
	}
	fmt.Printf("  profile: %s\n", file)
}
