/** A person who works in a shop's admin, as Shopify knows them (the fields of an online token's `associated_user`). */
export interface FakeStaffMember {
  /** Shopify's user id: digits, what a session token's `sub` says. */
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  accountOwner: boolean;
  locale: string;
  collaborator: boolean;
}

export type NewStaffMember = Pick<FakeStaffMember, "id" | "firstName" | "lastName"> & Partial<Omit<FakeStaffMember, "id" | "firstName" | "lastName">>;

/** The user every test's and the demo's session tokens name by default (fake-shopify/session-token.ts). */
export const OWNER_USER_ID = "42";

// Names for users a test never introduced: realistic, so that screens read as they would in a real shop.
const FIRST_NAMES = [
  "Amara",
  "Bruno",
  "Chloe",
  "Dmitri",
  "Elena",
  "Farid",
  "Grace",
  "Hiro",
  "Ines",
  "Jonas",
  "Kemi",
  "Lukas",
  "Maya",
  "Nikhil",
  "Olga",
  "Pablo",
];
const LAST_NAMES = ["Adeyemi", "Becker", "Castillo", "Dubois", "Eriksen", "Fischer", "Gupta", "Haddad", "Ivanova", "Jensen", "Kowalski", "Moreau", "Nakamura"];

const emailOf = (firstName: string, lastName: string) => `${firstName}.${lastName}@example.com`.toLowerCase();

/**
 * The name a user the fake did not know gets: the same for the same id in every run (tests that act
 * as users 101 or 303 see the same person each time), different for neighbouring ids.
 */
export function generatedName(id: string): { firstName: string; lastName: string } {
  const n = BigInt(id);
  const first = Number(n % BigInt(FIRST_NAMES.length));
  const last = Number((n / BigInt(FIRST_NAMES.length)) % BigInt(LAST_NAMES.length));
  return { firstName: FIRST_NAMES[first], lastName: LAST_NAMES[last] };
}

/**
 * A shop's staff. A new shop has one member, user 42, its account owner. A shop has exactly one
 * owner, as in Shopify: making another member owner transfers the ownership.
 */
export class FakeStaff {
  private readonly members = new Map<string, FakeStaffMember>();

  constructor() {
    this.add({ id: OWNER_USER_ID, firstName: "Dana", lastName: "Whitfield", accountOwner: true });
  }

  /** Adds a member, or changes the one with this id (a rename, a transfer of ownership). */
  add(member: NewStaffMember): FakeStaffMember {
    if (!/^[1-9]\d*$/.test(member.id)) throw new Error(`a Shopify user id is digits without leading zeros, not "${member.id}"`);
    const added: FakeStaffMember = {
      email: emailOf(member.firstName, member.lastName),
      accountOwner: false,
      locale: "en",
      collaborator: false,
      ...member,
    };
    if (added.accountOwner) for (const other of this.members.values()) other.accountOwner = false;
    this.members.set(added.id, added);
    return added;
  }

  member(id: string): FakeStaffMember | undefined {
    return this.members.get(id);
  }

  all(): FakeStaffMember[] {
    return [...this.members.values()];
  }

  /**
   * The member a session token's user id names. A user the fake does not know yet (a test acting as
   * user 101 without adding them) joins the staff as a member who is not the owner, with a generated
   * name: Shopify only signs session tokens for its shop's users, so every `sub` is somebody.
   */
  memberSigningIn(id: string): FakeStaffMember {
    return this.members.get(id) ?? this.add({ id, ...generatedName(id) });
  }
}

/** An online access token's `associated_user`, in Shopify's field names (its id a JSON number). */
export function associatedUser(member: FakeStaffMember) {
  return {
    id: Number(member.id),
    first_name: member.firstName,
    last_name: member.lastName,
    email: member.email,
    email_verified: true,
    account_owner: member.accountOwner,
    locale: member.locale,
    collaborator: member.collaborator,
  };
}
