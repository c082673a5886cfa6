package selfcontained

import (
	"bytes"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// trackerRef is a citation of an issue by number ("issue 13", "issues 9/11",
// "Issue #4"): the tracker is not part of the repository.
var trackerRef = regexp.MustCompile(`(?i)\bissues?\s*#?\d+`)

// mdLink is a Markdown link's target, or a relative path written as code
// (`../x/y.md`).
var mdLink = regexp.MustCompile("\\]\\(([^)\\s]+)\\)|`(\\.\\./[^`\\s]+)`")

// trackedFiles lists the repository's committed files, relative to its root.
func trackedFiles(t *testing.T) (string, []string) {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Fatalf("git ls-files (the test reads the committed files; git must be installed): %v", err)
	}
	var files []string
	for _, f := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if _, err := os.Stat(filepath.Join(root, f)); err == nil { // deleted in the work tree: gone
			files = append(files, f)
		}
	}
	if len(files) < 100 {
		t.Fatalf("git ls-files listed %d files: not the repository", len(files))
	}
	return root, files
}

// prose is what a reader or a client reads: production Go code (tests
// aside), the GraphQL schema (its descriptions are served by
// introspection), the README and docs/.
func prose(f string) bool {
	switch {
	case strings.HasPrefix(f, "web/node_modules/"), strings.HasPrefix(f, "web/dist/"):
		return false
	case strings.HasSuffix(f, ".go"):
		return !strings.HasSuffix(f, "_test.go")
	case strings.HasSuffix(f, ".graphqls"):
		return true
	case f == "README.md", strings.HasPrefix(f, "docs/") && strings.HasSuffix(f, ".md"):
		return true
	}
	return false
}

func TestNoTrackerReferences(t *testing.T) {
	root, files := trackedFiles(t)
	n := 0
	for _, f := range files {
		if !prose(f) {
			continue
		}
		n++
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			if m := trackerRef.FindString(line); m != "" {
				t.Errorf("%s:%d cites %q of a tracker the reader cannot see; say what the code or text is, and why", f, i+1, m)
			}
		}
	}
	if n < 50 {
		t.Fatalf("checked %d files: the selection is wrong", n)
	}
}

func TestNoLinkOutOfTheRepository(t *testing.T) {
	root, files := trackedFiles(t)
	for _, f := range files {
		if !strings.HasSuffix(f, ".md") || strings.HasPrefix(f, "web/node_modules/") {
			continue
		}
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1] + m[2]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "#") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			target, _, _ = strings.Cut(target, "#")
			p := path.Clean(path.Join(path.Dir(f), target))
			if p == ".." || strings.HasPrefix(p, "../") || strings.HasPrefix(target, "/") {
				t.Errorf("%s links %s, outside the repository", f, target)
				continue
			}
			if _, err := os.Stat(filepath.Join(root, p)); err != nil {
				t.Errorf("%s links %s, which does not exist", f, target)
			}
		}
	}
}

// TestNoCommittedBinary: executables are built, never committed.
func TestNoCommittedBinary(t *testing.T) {
	root, files := trackedFiles(t)
	magics := [][]byte{{0x7f, 'E', 'L', 'F'}, {0xcf, 0xfa, 0xed, 0xfe}, {0xfe, 0xed, 0xfa, 0xcf}, []byte("MZ\x90\x00"), []byte("!<arch>\n")}
	for _, f := range files {
		fh, err := os.Open(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		head := make([]byte, 8)
		n, _ := fh.Read(head)
		fh.Close()
		for _, m := range magics {
			if bytes.HasPrefix(head[:n], m) {
				t.Errorf("%s is a compiled binary: build it (go build ./cmd/...), do not commit it", f)
			}
		}
	}
}
