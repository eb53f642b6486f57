package app

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// LockFile is the name of the file in the data dir that the running server holds locked.
const LockFile = "checkout.lock"

// dirLock is the server's hold on its data dir: the lock file, open and locked until Close.
// The lock is the operating system's (flock): it goes with the process, so a server killed
// with SIGKILL leaves no stale lock behind, and the file itself may stay.
type dirLock struct{ f *os.File }

// lockDataDir takes the data dir for this server: two servers on one SQLite file (or one
// embedded sandbox's state) would each keep their own live pages and caches, and an order paid
// through one would never update the other's pages. A dir already held is a *ConfigError
// naming CHECKOUT_DATA_DIR and the holder's PID. The commands (checkout user, apikey) take no
// lock: they work beside a running server, through SQLite's own locking.
func lockDataDir(dir string) (*dirLock, error) {
	path := filepath.Join(dir, LockFile)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("app: opening the lock file: %w", err)
	}
	held, err := tryLock(f)
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("app: locking %s: %w", path, err)
	}
	if held {
		b, _ := os.ReadFile(path)
		f.Close()
		holder := "another process"
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			holder = "PID " + strconv.Itoa(pid)
		}
		return nil, &ConfigError{Var: "CHECKOUT_DATA_DIR", Msg: fmt.Sprintf(
			"%s is in use by another checkout server (%s): stop it, or give this one a data dir of its own", dir, holder)}
	}
	// The holder's PID, for the message of the next server that tries.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &dirLock{f: f}, nil
}

// Close releases the lock.
func (l *dirLock) Close() error {
	if l == nil {
		return nil
	}
	return l.f.Close()
}
