package sandbox

import (
	"os"
	"path/filepath"
	"testing"
)

// TestDataDirWithURIMetacharacters opens a data dir whose path holds "#" and "?", which an
// unescaped SQLite URI would cut short (opening, and sharing, a file named after the part
// before them).
func TestDataDirWithURIMetacharacters(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a#b?c %41")
	e := &env{t: t, dir: dir, clock: NewManualClock(testStart)}
	e.start(nil)
	e.createTx(e.token(), "uri-chars-1", 100)
	if _, err := os.Stat(filepath.Join(dir, dbFileName)); err != nil {
		t.Fatalf("the database is not in the data dir: %v", err)
	}
	if _, err := os.Stat(filepath.Dir(dir) + "/a"); err == nil {
		t.Fatal("a file named after the path cut at # was made")
	}
}
