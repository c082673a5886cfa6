// The admin adapter: the paged lists the admin pages read (their page shape
// lives here only).
import { gql } from './client';
import { PendingVerifications } from './ops';
import type { PendingVerificationsQuery } from '../gql/graphql';

export type Pending = PendingVerificationsQuery['pendingVerifications']['edges'][number]['node'];

/** pendingVerifications lists the verifications waiting for a decision, oldest first. */
export async function pendingVerifications(): Promise<Pending[]> {
  return (await gql<PendingVerificationsQuery>(PendingVerifications)).pendingVerifications.edges.map((e) => e.node);
}
