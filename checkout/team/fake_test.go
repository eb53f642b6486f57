package team_test

import (
	"context"
	"sort"
	"sync"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/team"
)

// memStore is an in-memory UserStore and ThrottleStore for the tests of the service's rules;
// the SQL stores are held to the same contract by checkout/storetest.
type memStore struct {
	mu       sync.Mutex
	users    map[string]team.User
	failures map[string]failure
}

type failure struct {
	n    int
	last time.Time
}

func newMemStore() *memStore {
	return &memStore{users: map[string]team.User{}, failures: map[string]failure{}}
}

// CreateUser stores a new user.
func (m *memStore) CreateUser(_ context.Context, u team.User) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, x := range m.users {
		if x.Email == u.Email {
			return team.ErrEmailTaken
		}
	}
	m.users[u.ID] = u
	return nil
}

// User returns a user by id.
func (m *memStore) User(_ context.Context, id string) (*team.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.users[id]
	if !ok {
		return nil, checkout.ErrNotFound
	}
	return &u, nil
}

// UserByEmail returns a user by e-mail.
func (m *memStore) UserByEmail(_ context.Context, email string) (*team.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, u := range m.users {
		if u.Email == email {
			return &u, nil
		}
	}
	return nil, checkout.ErrNotFound
}

// SetPasswordHash replaces a password hash.
func (m *memStore) SetPasswordHash(_ context.Context, id, hash string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.users[id]
	if !ok {
		return checkout.ErrNotFound
	}
	u.PasswordHash, u.UpdatedAt = hash, at
	m.users[id] = u
	return nil
}

// Users lists the users by e-mail.
func (m *memStore) Users(context.Context) ([]team.User, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []team.User
	for _, u := range m.users {
		out = append(out, u)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Email < out[j].Email })
	return out, nil
}

// SetUserRole changes a role; the last owner keeps theirs.
func (m *memStore) SetUserRole(_ context.Context, id string, role team.Role, _ ...checkout.OutboxMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	u, ok := m.users[id]
	if !ok {
		return checkout.ErrNotFound
	}
	if role != team.RoleOwner && m.lastOwner(id) {
		return team.ErrLastOwner
	}
	u.Role = role
	m.users[id] = u
	return nil
}

// DeleteUser removes a user but the last owner.
func (m *memStore) DeleteUser(_ context.Context, id string, _ ...checkout.OutboxMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.users[id]; !ok {
		return checkout.ErrNotFound
	}
	if m.lastOwner(id) {
		return team.ErrLastOwner
	}
	delete(m.users, id)
	return nil
}

// lastOwner reports whether id is the only owner.
func (m *memStore) lastOwner(id string) bool {
	if m.users[id].Role != team.RoleOwner {
		return false
	}
	for uid, u := range m.users {
		if uid != id && u.Role == team.RoleOwner {
			return false
		}
	}
	return true
}

// RecordSignIn notes a sign-in.
func (m *memStore) RecordSignIn(_ context.Context, id string, at time.Time) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if u, ok := m.users[id]; ok {
		u.LastSignInAt = at
		m.users[id] = u
	}
	return nil
}

// LoginFailures returns the failures of a key.
func (m *memStore) LoginFailures(_ context.Context, key string) (int, time.Time, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f := m.failures[key]
	return f.n, f.last, nil
}

// RecordLoginFailure counts a failure.
func (m *memStore) RecordLoginFailure(_ context.Context, key string, at, since time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	f := m.failures[key]
	if f.last.Before(since) {
		f.n = 0
	}
	f.n++
	f.last = at
	m.failures[key] = f
	return f.n, nil
}

// ResetLoginFailures forgets a key.
func (m *memStore) ResetLoginFailures(_ context.Context, key string) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.failures, key)
	return nil
}

// PruneLoginFailures forgets old keys.
func (m *memStore) PruneLoginFailures(_ context.Context, before time.Time) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := 0
	for k, f := range m.failures {
		if f.last.Before(before) {
			delete(m.failures, k)
			n++
		}
	}
	return n, nil
}
