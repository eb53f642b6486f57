package team

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"time"

	"github.com/pixcheckout/pixcheckout/checkout"
	"github.com/pixcheckout/pixcheckout/checkout/audit"
)

// InvitationLifetime is how long an invitation link may be used (once).
const InvitationLifetime = 72 * time.Hour

// Invitation lets the holder of its link become a user with its e-mail and role, once, before
// it expires. Only the SHA-256 of the link's token is stored.
type Invitation struct {
	ID        string
	TokenHash string // hex SHA-256 of the token
	Email     string
	Role      Role
	InvitedBy string // the inviter's e-mail, or "cli"
	CreatedAt time.Time
	ExpiresAt time.Time
	UsedAt    time.Time // zero: not used yet
}

// InvitationStore keeps invitations. Implementations must pass checkout/storetest.
type InvitationStore interface {
	// CreateInvitation stores a new invitation, and the messages out (its e-mail) in the same
	// transaction.
	CreateInvitation(ctx context.Context, inv Invitation, out ...checkout.OutboxMessage) error
	// InvitationByTokenHash returns the invitation with that token hash, or
	// checkout.ErrNotFound.
	InvitationByTokenHash(ctx context.Context, hash string) (*Invitation, error)
	// PendingInvitations lists the invitations neither used nor expired at now, newest first.
	PendingInvitations(ctx context.Context, now time.Time) ([]Invitation, error)
	// AcceptInvitation marks the invitation used at at and creates u, in one transaction: an
	// invitation already used or expired at at gives ErrInvitationInvalid, a taken e-mail
	// ErrEmailTaken (and the invitation stays unused).
	AcceptInvitation(ctx context.Context, id string, u User, at time.Time) error
	// DeleteInvitation withdraws an invitation, or returns checkout.ErrNotFound.
	DeleteInvitation(ctx context.Context, id string) error
}

// ErrInvitationInvalid: the link is unknown, used or expired (one error for the three, so
// that a link reveals nothing).
var ErrInvitationInvalid = &checkout.Error{Code: checkout.CodeNotFound, Message: "this invitation is unknown, used or expired"}

// hashToken is the stored form of an invitation's token.
func hashToken(token string) string {
	sum := sha256.Sum256([]byte("invitation:" + token))
	return hex.EncodeToString(sum[:])
}

// Invite makes an invitation for email to join with role, made by invitedBy (an e-mail, or
// "cli"). It returns the token of the link (shown once to the inviter) and the invitation. A
// bad e-mail or role is a *checkout.ValidationError, an e-mail a user already has
// ErrEmailTaken.
func (a *Accounts) Invite(ctx context.Context, email string, role Role, invitedBy string) (string, *Invitation, error) {
	return a.InviteWith(ctx, email, role, invitedBy, nil)
}

// Compose makes the messages (e-mails) that announce a new link: its token, which is never
// stored, and what it is for. They are written with the link, or not at all.
type Compose[T any] func(token string, about *T) ([]checkout.OutboxMessage, error)

// InviteWith is Invite with the invitation's e-mail, made by compose (nil: none).
func (a *Accounts) InviteWith(ctx context.Context, email string, role Role, invitedBy string, compose Compose[Invitation]) (string, *Invitation, error) {
	if a.invitations == nil {
		return "", nil, errors.New("team: invitations are not configured")
	}
	email = NormalizeEmail(email)
	if err := fieldErrors(checkEmail(email), checkRole(role)); err != nil {
		return "", nil, err
	}
	if _, err := a.users.UserByEmail(ctx, email); err == nil {
		return "", nil, ErrEmailTaken
	} else if !errors.Is(err, checkout.ErrNotFound) {
		return "", nil, fmt.Errorf("team: inviting %s: %w", email, err)
	}
	token := newToken()
	now := a.now().UTC()
	inv := Invitation{ID: a.newID(), TokenHash: hashToken(token), Email: email, Role: role, InvitedBy: invitedBy,
		CreatedAt: now, ExpiresAt: now.Add(InvitationLifetime)}
	var out []checkout.OutboxMessage
	if compose != nil {
		var err error
		if out, err = compose(token, &inv); err != nil {
			return "", nil, fmt.Errorf("team: the invitation of %s: %w", email, err)
		}
	}
	if err := a.invitations.CreateInvitation(ctx, inv, out...); err != nil {
		return "", nil, fmt.Errorf("team: inviting %s: %w", email, err)
	}
	return token, &inv, nil
}

// Invitation returns the usable invitation of a link's token, or ErrInvitationInvalid.
func (a *Accounts) Invitation(ctx context.Context, token string) (*Invitation, error) {
	if a.invitations == nil || token == "" || len(token) > 128 {
		return nil, ErrInvitationInvalid
	}
	inv, err := a.invitations.InvitationByTokenHash(ctx, hashToken(token))
	if errors.Is(err, checkout.ErrNotFound) {
		return nil, ErrInvitationInvalid
	}
	if err != nil {
		return nil, fmt.Errorf("team: reading an invitation: %w", err)
	}
	if !inv.UsedAt.IsZero() || !a.now().Before(inv.ExpiresAt) {
		return nil, ErrInvitationInvalid
	}
	if ok, err := a.inviterMayStill(ctx, inv); err != nil {
		return nil, err
	} else if !ok {
		return nil, ErrInvitationInvalid
	}
	return inv, nil
}

// mayInvite reports whether a user of role may invite someone to role to: an invitation holds
// no more than its inviter may give.
func mayInvite(role, to Role) bool { return role.Can(PermUsers) && to.Valid() }

// inviterMayStill reports whether the inviter of inv may still invite its role: an invitation
// outlives neither its inviter's removal nor their losing the right (even when withdrawing it
// at the change failed). The shell ("cli") always may.
func (a *Accounts) inviterMayStill(ctx context.Context, inv *Invitation) (bool, error) {
	if inv.InvitedBy == audit.ActorCLI {
		return true, nil
	}
	u, err := a.users.UserByEmail(ctx, inv.InvitedBy)
	if errors.Is(err, checkout.ErrNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("team: reading the inviter of an invitation: %w", err)
	}
	return mayInvite(u.Role, inv.Role), nil
}

// WithdrawInvitationsOf withdraws the open invitations made by the user with that e-mail that
// they may no longer make: all of them when they were removed (role ""), those of roles their
// new role may not invite otherwise. It returns the withdrawn ones, for the audit log.
func (a *Accounts) WithdrawInvitationsOf(ctx context.Context, email string, role Role) ([]Invitation, error) {
	if a.invitations == nil {
		return nil, nil
	}
	invs, err := a.invitations.PendingInvitations(ctx, a.now())
	if err != nil {
		return nil, fmt.Errorf("team: reading the invitations of %s: %w", email, err)
	}
	var out []Invitation
	for _, inv := range invs {
		if inv.InvitedBy != email || (role != "" && mayInvite(role, inv.Role)) {
			continue
		}
		if err := a.invitations.DeleteInvitation(ctx, inv.ID); err != nil && !errors.Is(err, checkout.ErrNotFound) {
			return out, fmt.Errorf("team: withdrawing an invitation of %s: %w", email, err)
		}
		out = append(out, inv)
	}
	return out, nil
}

// AcceptInvitation makes the user of an invitation's link with the password they chose: the
// link is then used. A bad password is a *checkout.ValidationError on FieldPassword (the link
// stays usable), a link unknown, used or expired ErrInvitationInvalid.
func (a *Accounts) AcceptInvitation(ctx context.Context, token, password string) (*User, error) {
	inv, err := a.Invitation(ctx, token)
	if err != nil {
		return nil, err
	}
	if err := fieldErrors(CheckPassword(password, inv.Email)); err != nil {
		return nil, err
	}
	hash, err := a.hasher.Hash(ctx, password)
	if err != nil {
		return nil, err
	}
	now := a.now()
	u := User{ID: a.newID(), Email: inv.Email, Role: inv.Role, PasswordHash: hash, CreatedAt: now, UpdatedAt: now}
	if err := a.invitations.AcceptInvitation(ctx, inv.ID, u, now); err != nil {
		if errors.Is(err, ErrInvitationInvalid) || errors.Is(err, ErrEmailTaken) {
			return nil, err
		}
		return nil, fmt.Errorf("team: accepting an invitation: %w", err)
	}
	return &u, nil
}

// PendingInvitations lists the invitations still usable, newest first.
func (a *Accounts) PendingInvitations(ctx context.Context) ([]Invitation, error) {
	if a.invitations == nil {
		return nil, nil
	}
	return a.invitations.PendingInvitations(ctx, a.now())
}

// WithdrawInvitation deletes an invitation: its link stops working.
func (a *Accounts) WithdrawInvitation(ctx context.Context, id string) error {
	if a.invitations == nil {
		return checkout.ErrNotFound
	}
	return a.invitations.DeleteInvitation(ctx, id)
}
