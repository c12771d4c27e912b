/** The part of an upsert's input that decides its subscription (`UpsertContactInput`). */
interface SubscriptionInput {
  subscribed?: boolean;
  defaultSubscribed: boolean;
  /** Set by `withoutSubscription`: the upsert records that the contact must confirm. */
  confirm?: ConfirmWhen | null;
}

/** How long a resend waits for the previous confirmation email (also what repeated sign-ups wait). */
export const CONFIRMATION_RESEND_INTERVAL_SECONDS = 600;

/** How long after the upsert that asked for it a confirmation email not yet written is the repair pass's to write. */
export const CONFIRMATION_REPAIR_GRACE_SECONDS = 60;

/** How long a confirmation link stays valid. */
export const CONFIRMATION_LINK_TTL_SECONDS = 7 * 24 * 3600;

/** What starts double opt-in for a call: the public key on `/v1/track`, or `doubleOptIn: true` in the body. */
export interface OptInTrigger {
  publicKey?: boolean;
  requested?: boolean;
}

/**
 * When an upsert would make the contact subscribed: `always` with an explicit `subscribed: true`,
 * `new` when only a contact it creates is subscribed by default (an existing one keeps its state);
 * null when it never subscribes.
 */
export type ConfirmWhen = 'always' | 'new';

export function subscribesWhen(input: SubscriptionInput): ConfirmWhen | null {
  if (input.subscribed === true) return 'always';
  return input.subscribed === undefined && input.defaultSubscribed ? 'new' : null;
}

/**
 * Plunk's `preserveExistingSubscription: true`: the explicit `subscribed` value applies to a
 * contact the call creates only; an existing contact keeps its state.
 */
export function preservingSubscription<T extends SubscriptionInput>(input: T, preserve: boolean | undefined): T {
  // A JSON null is no explicit value (as without the flag): the defaults stand.
  if (!preserve || input.subscribed === undefined || input.subscribed === null) return input;
  return { ...input, subscribed: undefined, defaultSubscribed: input.subscribed };
}

/**
 * The upsert under double opt-in: nothing it does subscribes the contact (a new contact starts
 * unsubscribed, an existing one keeps its state); an explicit `false` still unsubscribes. It
 * carries `when` so the upsert's own statement records that the contact must confirm.
 */
export function withoutSubscription<T extends SubscriptionInput>(input: T, when: ConfirmWhen): T {
  return { ...input, subscribed: input.subscribed === false ? false : undefined, defaultSubscribed: false, confirm: when };
}
