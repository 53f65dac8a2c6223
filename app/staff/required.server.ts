import { staffOf, type AuthenticatedRequest, type StaffMember } from "./identity.server";

/**
 * The staff member making a request that acts for a person (issues a refund, decides a request,
 * changes limits): a session token that names no user is refused with 401, never acted on as "someone".
 */
export function requireStaff(auth: AuthenticatedRequest): StaffMember {
  const staff = staffOf(auth);
  if (!staff) throw new Response("Unauthorized: the session token names no staff member.", { status: 401 });
  return staff;
}
