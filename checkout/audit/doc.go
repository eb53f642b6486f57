// Package audit is the audit log of the dashboard and the commands: who changed what (an actor,
// an action of Actions, its object and detail), from which address, kept for a retention
// (DefaultAuditRetention) and pruned after it. Every text is clipped to MaxText and made valid
// UTF-8, since a failed sign-in records what was typed. Changes made on the shell are recorded
// with the actor ActorCLI.
package audit
