// Package botproc runs the real zaria binary as a child process for
// end-to-end benchmarks and fault tests: environment, log capture, signals,
// the ops listener's /metrics, and the child's memory from /proc.
package botproc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Build compiles ./cmd/zaria (with -tags goolm) from the module at root
// into dir and returns the binary's path.
func Build(root, dir string) (string, error) {
	bin := filepath.Join(dir, "zaria")
	cmd := exec.Command("go", "build", "-tags", "goolm", "-o", bin, "./cmd/zaria")
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
}

// BuildRef builds the zaria binary of the git ref (a commit, a branch)
// from its files: git archive into a temporary directory, so the
// repository and its worktrees are left as they are, then Build. cleanup
// removes the directory and the binary.
func BuildRef(ref string) (bin string, cleanup func(), err error) {
	wd, err := os.Getwd()
	if err != nil {
		return "", nil, err
	}
	root, err := ModuleRoot(wd)
	if err != nil {
		return "", nil, err
	}
	dir, err := os.MkdirTemp("", "zaria-base-")
	if err != nil {
		return "", nil, err
	}
	cleanup = func() { os.RemoveAll(dir) }
	src := filepath.Join(dir, "src")
	if err := os.Mkdir(src, 0o755); err != nil {
		cleanup()
		return "", nil, err
	}
	fmt.Printf("building %s (git archive → %s, go build -tags goolm)\n", ref, src)
	t0 := time.Now()
	archive := exec.Command("git", "-C", root, "archive", "--format=tar", ref)
	untar := exec.Command("tar", "-x", "-C", src)
	pipe, err := archive.StdoutPipe()
	if err != nil {
		cleanup()
		return "", nil, err
	}
	untar.Stdin = pipe
	var archErr strings.Builder
	archive.Stderr = &archErr
	if err := untar.Start(); err != nil {
		cleanup()
		return "", nil, err
	}
	if err := archive.Run(); err != nil {
		untar.Wait()
		cleanup()
		return "", nil, fmt.Errorf("git archive %s: %v %s", ref, err, archErr.String())
	}
	if err := untar.Wait(); err != nil {
		cleanup()
		return "", nil, fmt.Errorf("untar %s: %w", ref, err)
	}
	bin, err = Build(src, dir)
	if err != nil {
		cleanup()
		return "", nil, fmt.Errorf("build %s: %w", ref, err)
	}
	fmt.Printf("built %s in %.0f s\n", ref, time.Since(t0).Seconds())
	return bin, cleanup, nil
}

// ModuleRoot finds the directory of go.mod above dir.
func ModuleRoot(dir string) (string, error) {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("botproc: go.mod not found")
		}
		dir = parent
	}
}

// FreeAddr returns a free loopback address.
func FreeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// Proc is a running bot.
type Proc struct {
	Cmd     *exec.Cmd
	Metrics string // http://addr of the ops listener, "" if none

	mu   sync.Mutex
	logs bytes.Buffer
	done chan struct{}
	err  error
}

// Start runs bin with args in dir with exactly env (plus PATH and HOME),
// capturing stdout and stderr. If env sets ZARIA_HTTP_LISTEN, Start waits
// until /healthz answers.
func Start(ctx context.Context, bin, dir string, env []string, args ...string) (*Proc, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}, env...)
	p := &Proc{Cmd: cmd, done: make(chan struct{})}
	pr, pw := io.Pipe()
	cmd.Stdout, cmd.Stderr = pw, pw
	cmd.Stdin = nil
	read := make(chan struct{}) // closed once every byte written is in logs
	go func() {
		defer close(read)
		sc := bufio.NewScanner(pr)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			p.mu.Lock()
			p.logs.Write(sc.Bytes())
			p.logs.WriteByte('\n')
			p.mu.Unlock()
		}
		_, _ = io.Copy(io.Discard, pr)
	}()
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	go func() {
		err := cmd.Wait()
		pw.Close()
		// Wait returns once the child's output went into the pipe, which
		// can be before the reader has stored its last lines: Done means
		// Logs is complete.
		<-read
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.done)
	}()
	for _, kv := range env {
		if addr, ok := strings.CutPrefix(kv, "ZARIA_HTTP_LISTEN="); ok {
			p.Metrics = "http://" + addr
		}
	}
	if p.Metrics != "" {
		deadline := time.Now().Add(20 * time.Second)
		for {
			resp, err := http.Get(p.Metrics + "/healthz")
			if err == nil {
				resp.Body.Close()
				if resp.StatusCode == 200 {
					break
				}
			}
			select {
			case <-p.done:
				return nil, fmt.Errorf("zaria exited at start: %v\n%s", p.Err(), p.Logs())
			case <-ctx.Done():
				p.Kill()
				return nil, ctx.Err()
			case <-time.After(20 * time.Millisecond):
			}
			if time.Now().After(deadline) {
				p.Kill()
				return nil, fmt.Errorf("zaria: /healthz never answered\n%s", p.Logs())
			}
		}
	}
	return p, nil
}

// PID is the child's process id.
func (p *Proc) PID() int { return p.Cmd.Process.Pid }

// Logs returns everything the child wrote so far.
func (p *Proc) Logs() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.logs.String()
}

// Done is closed when the child exited.
func (p *Proc) Done() <-chan struct{} { return p.done }

// Err is the child's exit error once Done is closed.
func (p *Proc) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Kill sends SIGKILL and waits for the exit.
func (p *Proc) Kill() {
	_ = p.Cmd.Process.Signal(syscall.SIGKILL)
	<-p.done
}

// Stop sends SIGTERM and waits up to timeout; it returns how long the exit
// took and an error if the child did not exit in time (it is then killed).
func (p *Proc) Stop(timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	_ = p.Cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-p.done:
		return time.Since(start), nil
	case <-time.After(timeout):
		p.Kill()
		return time.Since(start), fmt.Errorf("zaria did not exit within %s of SIGTERM", timeout)
	}
}

// clockTicks is USER_HZ, the unit of /proc/PID/stat's times: 100 on
// every Linux architecture Go supports.
const clockTicks = 100

// CPU is the CPU time the bot has used so far, user and system, every
// thread (/proc/PID/stat's utime + stime, 10 ms resolution). Its change
// over a phase, per reply, is the work the bot did, which the other
// processes of a loaded machine slow down much less than they do a wall
// time.
func (p *Proc) CPU() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.PID()))
	if err != nil {
		return 0, err
	}
	// The command name (field 2) is in parentheses and may hold spaces:
	// the fields counted from the last ')' are state (3), …, utime (14),
	// stime (15).
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, fmt.Errorf("botproc: /proc/%d/stat: no command name", p.PID())
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, fmt.Errorf("botproc: /proc/%d/stat: %d fields", p.PID(), len(f))
	}
	var ticks int64
	for _, v := range f[11:13] {
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil {
			return 0, fmt.Errorf("botproc: /proc/%d/stat: %w", p.PID(), err)
		}
		ticks += n
	}
	return time.Duration(ticks) * time.Second / clockTicks, nil
}

// Status reads a field of /proc/PID/status in kB (VmHWM = peak RSS, VmRSS).
func (p *Proc) Status(field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.PID()))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			v = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB"))
			return strconv.ParseInt(v, 10, 64)
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, p.PID())
}

// Scrape fetches /metrics and returns every sample by its full name with
// labels ("zaria_command_seconds_bucket{le=\"0.001\"}").
func (p *Proc) Scrape() (map[string]float64, error) {
	resp, err := http.Get(p.Metrics + "/metrics")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			continue
		}
		out[line[:i]] = v
	}
	return out, sc.Err()
}

// Quantile estimates the q-quantile of a Prometheus histogram from its
// cumulative buckets, interpolating linearly inside a bucket as
// Prometheus's histogram_quantile does. It also returns the upper bound of
// the bucket the quantile falls in.
func Quantile(m map[string]float64, name string, q float64) (est, bound float64) {
	type b struct{ le, n float64 }
	var bs []b
	for k, v := range m {
		rest, ok := strings.CutPrefix(k, name+"_bucket{le=\"")
		if !ok {
			continue
		}
		le, err := strconv.ParseFloat(strings.TrimSuffix(rest, "\"}"), 64)
		if rest == "+Inf\"}" {
			le, err = math.Inf(1), nil
		}
		if err == nil {
			bs = append(bs, b{le, v})
		}
	}
	sort.Slice(bs, func(i, j int) bool { return bs[i].le < bs[j].le })
	if len(bs) == 0 || bs[len(bs)-1].n == 0 {
		return math.NaN(), math.NaN()
	}
	rank := q * bs[len(bs)-1].n
	lo, prev := 0.0, 0.0
	for _, x := range bs {
		if x.n >= rank {
			if math.IsInf(x.le, 1) {
				return lo, x.le
			}
			if x.n == prev {
				return x.le, x.le
			}
			return lo + (x.le-lo)*(rank-prev)/(x.n-prev), x.le
		}
		lo, prev = x.le, x.n
	}
	return lo, math.Inf(1)
}
