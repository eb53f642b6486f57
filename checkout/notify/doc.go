// Package notify makes and delivers the merchant's signed notifications of order changes
// (webhooks): the Announcer, the outbox's options, the delivery log and the test ping. A
// notification's data is the order as the merchant API shows it; that shape belongs to the API
// (web/apijson) and reaches the Announcer as its Order function, wired by the program.
//
// When an order enters a state, Announcer (the checkout.Service's checkout.Announcer) makes one
// notification per change: type "order." and the state, body the order as the API shows it. The
// order's store writes them into the outbox (gatewayclient/outbox, the one the sandbox's
// webhooks use too) in the transaction of the change, with InsertNotification, so they exist
// exactly when the change was committed. The outbox, made with NotificationOptions and running
// in every instance, claims due notifications with a lease (an order's only once the earlier
// ones are delivered or given up, so they arrive in order), sends each to the URL of the
// settings in force when it is due, signed with their secret (Standard Webhooks), skips it when
// no URL or secret is configured, and records each attempt; a failure is retried along
// RetrySchedule, each wait shortened by up to a tenth at random, for more than a day, then the
// notification is dead. DeliveryLog is the merchant's view of the log, which the outbox prunes
// after 30 days.
//
// A charge with a due date (package charges) is notified the same way: ChargeAnnouncer, the
// charges.Manager's charges.Announcer, makes one notification per change of its status
// (charge.created, charge.overdue, charge.paid, charge.canceled; a partial payment is none),
// body the charge as the API shows it on the day of the change (apijson.ChargeEvent), stored by
// the charge's store in the transaction of the change and delivered in order per charge.
package notify
