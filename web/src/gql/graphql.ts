/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
export type BetStatus =
  | 'ACCEPTED'
  | 'LOST'
  | 'REFUNDED'
  | 'WON';

/** The four betting rounds of a draw. */
export type BettingRound =
  | 'FLOP'
  | 'POCKET'
  | 'PRE_DEAL'
  | 'TURN';

export type CashInput = {
  amount: string;
  idempotencyKey: string;
  memo?: string | null | undefined;
  userId: string | number;
};

export type CreateApiKeyInput = {
  /** Whose key it is, e.g. the affiliate's company. */
  name: string;
  /** Requests allowed per minute, 1 to 60000; default 600. */
  requestsPerMinute?: number | null | undefined;
};

export type CreateWebhookEndpointInput = {
  /** Whose endpoint it is, at most 200 characters. */
  description?: string | null | undefined;
  eventTypes: Array<WebhookEventType>;
  /** An https:// URL (http:// is taken in development only). */
  url: string;
};

export type DecideVerificationInput = {
  approve: boolean;
  id: string | number;
  /** Free text for staff; a rejection needs rejectReason or reason. */
  reason?: string | null | undefined;
  /** A rejection's reason from the list (preferred: the player reads it in their language). */
  rejectReason?: RejectionReason | null | undefined;
};

export type DocumentType =
  | 'DRIVERS_LICENSE'
  | 'ID_CARD'
  | 'PASSPORT';

export type DrawPhase =
  | 'DEALING_FLOP'
  | 'DEALING_POCKET'
  | 'DEALING_RIVER'
  | 'DEALING_TURN'
  | 'FLOP'
  | 'POCKET'
  /** Round 1 open: bets before the deal. */
  | 'PRE_DEAL'
  | 'SETTLED'
  | 'TURN'
  | 'VOID';

export type ExclusionKind =
  /** 6 months to 5 years, or permanent. */
  | 'SELF_EXCLUSION'
  /** 24 hours to 6 weeks. */
  | 'TIME_OUT';

/** A coupon (SelectionInput's field of a COUPON-shaped market, EXPRESS): the leader after the flop, the leader after the turn and the winner after the river (a position may repeat). */
export type ExpressInput = {
  flop: number;
  river: number;
  turn: number;
};

/** The category of a poker hand, low to high. */
export type HandCategory =
  | 'FLUSH'
  | 'FOUR_OF_A_KIND'
  | 'FULL_HOUSE'
  | 'HIGH_CARD'
  | 'PAIR'
  | 'ROYAL_FLUSH'
  | 'STRAIGHT'
  | 'STRAIGHT_FLUSH'
  | 'THREE_OF_A_KIND'
  | 'TWO_PAIR';

export type HoldemBoxInput = {
  ante: string;
  bonus?: string | null | undefined;
};

export type HoldemDecideInput = {
  /** 1 or 2; box 1 decides first. */
  box: number;
  decision: HoldemDecision;
  handId: string | number;
  idempotencyKey: string;
};

export type HoldemDecision =
  | 'CALL'
  | 'FOLD';

export type HoldemOutcome =
  /** The dealer has less than a pair of fours: Ante paid by the paytable, Bet returned. */
  | 'DEALER_NOT_QUALIFIED'
  /** The box folded (or timed out): the Ante is lost. */
  | 'FOLD'
  /** The qualifying dealer is higher: Ante and Bet lost. */
  | 'LOSE'
  /** Identical best fives: Ante and Bet returned. */
  | 'STAY'
  /** The box beats the qualifying dealer: Ante paid by the paytable, Bet 1:1. */
  | 'WIN';

export type HoldemPhase =
  /** Waiting for the decision of the box in `turn`. */
  | 'DECIDING'
  /** Every box decided or timed out; dealer's cards, result and seed are shown. */
  | 'SETTLED';

export type HoldemStartInput = {
  /** One or two boxes. */
  boxes: Array<HoldemBoxInput>;
  /**
   * Required (BAD_USER_INPUT COMMITMENT_REQUIRED without it): the commitment
   * returned by holdemCommit. The hand is dealt from that seed, which was fixed
   * and shown before the cut was chosen, so the house cannot pick it to suit
   * the cut (docs/fairness.md).
   */
  commitment?: string | null | undefined;
  /** Required (BAD_USER_INPUT CUT_REQUIRED when empty): any text of the player's (at most 256 bytes), mixed into the shuffle; the web client draws 16 random bytes (hex) unless the player types one. */
  cut?: string | null | undefined;
  idempotencyKey: string;
};

/** Why money moved. */
export type LedgerEntryKind =
  | 'BET_STAKE'
  | 'BREAKAGE'
  | 'COMMISSION'
  | 'DEPOSIT'
  | 'HOLDEM_PAYOUT'
  | 'HOLDEM_STAKE'
  | 'JACKPOT'
  | 'JACKPOT_ROLLOVER'
  | 'JACKPOT_TOPUP'
  | 'PAYOUT'
  | 'REFUND'
  | 'SETTLEMENT'
  | 'TOPUP'
  | 'WITHDRAWAL';

export type LimitKind =
  | 'DEPOSIT'
  /** Stakes minus returns (payouts, refunds) within the period. */
  | 'LOSS'
  | 'STAKE';

export type LimitPeriod =
  | 'DAY'
  | 'MONTH'
  | 'WEEK';

/** A market: what a bet backs. Each is declared once, in the server's market registry. */
export type Market =
  /** the category of the winning hand */
  | 'COMBINATION'
  /** a coupon of the leader after the flop, the leader after the turn and the winner after the river */
  | 'EXPRESS'
  /** a position wins after the river (alone or in a tie) */
  | 'WIN';

export type PlaceBetInput = {
  drawId: string | number;
  idempotencyKey: string;
  /** What the bet backs; its market follows from it. */
  selection: SelectionInput;
  stake: string;
};

/** Why a session of play ended. */
export type PlayerSessionEnd =
  /** No stake for 30 minutes after the last play. */
  | 'IDLE'
  /** The last play was less than 30 minutes ago: it may go on. */
  | 'OPEN'
  /** The player excluded themselves. */
  | 'SELF_EXCLUSION'
  /** The player took a time-out. */
  | 'TIME_OUT';

export type PositionStatus =
  | 'LOSS'
  | 'PENDING'
  | 'WIN';

export type RegisterInput = {
  /** The version of the terms (Query.terms.version) the player read and accepted. A player account is refused without it (TERMS_NOT_ACCEPTED) or with another version (TERMS_OUTDATED); the acceptance is stored with the account. */
  acceptedTerms?: string | null | undefined;
  dateOfBirth: string;
  email: string;
  name: string;
  password: string;
};

/**
 * Why a document was refused, from a fixed list a client translates for the
 * player. OTHER: a free-text reason (kept in Verification.reason for staff).
 */
export type RejectionReason =
  | 'DATE_OF_BIRTH_MISMATCH'
  | 'DOCUMENT_EXPIRED'
  | 'DOCUMENT_NOT_ACCEPTED'
  | 'DOCUMENT_UNREADABLE'
  | 'DUPLICATE_DOCUMENT'
  | 'NAME_MISMATCH'
  | 'OTHER';

/** What a row of figures belongs to: a totalizator table, Casino Hold'em, or the cashier's desk. */
export type ReportGame =
  | 'CASHIER'
  | 'HOLDEM'
  | 'TOTE';

export type Role =
  | 'ADMIN'
  | 'AFFILIATE'
  | 'PLAYER';

/** What a bet backs: exactly one of its fields, which names the market. */
export type SelectionInput =
  {   /** COMBINATION: the category of the winning hand. */
  combination: HandCategory; express?: never; position?: never; }
  |  { combination?: never;   /** EXPRESS: a coupon of the leader after the flop, the leader after the turn and the winner after the river. */
  express: ExpressInput; position?: never; }
  |  { combination?: never; express?: never;   /** WIN: a position wins after the river (alone or in a tie). */
  position: number; };

export type SetLimitInput = {
  /** 0.00 or null removes the limit (after the cooling-off). */
  amount?: string | null | undefined;
  kind: LimitKind;
  period: LimitPeriod;
};

/** The street a CARDS_DEALT event (or live odds) completes. */
export type Street =
  | 'FLOP'
  | 'POCKET'
  | 'RIVER'
  | 'TURN';

export type TableInput = {
  cardIntervalMs?: number | null | undefined;
  commission?: string | null | undefined;
  expressShares?: Array<string> | null | undefined;
  maxStake?: string | null | undefined;
  minStake?: string | null | undefined;
  name: string;
  positions: number;
  resultSeconds?: number | null | undefined;
  roundSeconds?: Array<number> | null | undefined;
  /** SUSPEND_AT, percent: 50 to 90 (INVALID_SUSPEND_AT otherwise). */
  suspendAt?: string | null | undefined;
};

export type TableStatus =
  | 'PAUSED'
  | 'RUNNING';

export type VerificationInput = {
  dateOfBirth: string;
  documentNumber: string;
  documentType: DocumentType;
};

export type VerificationStatus =
  | 'APPROVED'
  | 'NONE'
  | 'PENDING'
  | 'REJECTED';

/** Why a draw was voided (docs/fairness.md, section 6). */
export type VoidKind =
  /** An admin voided it while betting round 1 was open, before any card or beacon round could be known. */
  | 'ADMIN_BEFORE_DEAL'
  /** When a betting round closed, the beacon round its street is drawn from was already published (the server's clock was behind the chain): result version 4 on. */
  | 'BEACON_BEFORE_CLOSE'
  /** A street's committed beacon round was not available by its committed deadline. */
  | 'BEACON_MISSING'
  /** Voided before void kinds were recorded; the reason is free text. */
  | 'LEGACY'
  /** A betting round with bets closed only once its street's beacon round was due (a stalled dealer), so its bet root could have been written knowing the cards: result version 5 on. */
  | 'ROOT_LATE';

/** What an endpoint can subscribe to. */
export type WebhookEventType =
  /** draw.settled: a draw was settled (its result, winners and coefficients). */
  | 'DRAW_SETTLED'
  /** draw.voided: a draw was voided (its typed void kind). */
  | 'DRAW_VOIDED'
  /** regulator.bet.accepted: a stake left a player's wallet (the regulator's feed; webhook-id reg_<seq>). */
  | 'REGULATOR_BET_ACCEPTED'
  /** regulator.bet.settled: a payout or a refund reached a player's wallet (the regulator's feed). */
  | 'REGULATOR_BET_SETTLED'
  /** regulator.deposit: cash paid in at the cashier (the regulator's feed). */
  | 'REGULATOR_DEPOSIT'
  /** regulator.protection.changed: a player's limit or exclusion changed, or an exclusion register entry was added or removed (the regulator's feed). */
  | 'REGULATOR_PROTECTION_CHANGED'
  /** regulator.withdrawal: cash paid out at the cashier (the regulator's feed). */
  | 'REGULATOR_WITHDRAWAL'
  /** table.changed: a table was paused or resumed. */
  | 'TABLE_CHANGED'
  /** table.created: a table appeared. */
  | 'TABLE_CREATED';

export type UserFieldsFragment = { id: string, email: string, name: string, dateOfBirth: string, role: Role, age: number, canStake: boolean, balance: string, verification: { id: string | null, status: VerificationStatus, documentType: DocumentType | null, reason: string | null, rejectReason: RejectionReason | null, submittedAt: string | null, decidedAt: string | null } };

export type AuthFieldsFragment = { accessToken: string, accessTokenExpiresAt: string, refreshToken: string, refreshTokenExpiresAt: string, user: { id: string } };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { id: string, email: string, name: string, dateOfBirth: string, role: Role, age: number, canStake: boolean, balance: string, verification: { id: string | null, status: VerificationStatus, documentType: DocumentType | null, reason: string | null, rejectReason: RejectionReason | null, submittedAt: string | null, decidedAt: string | null } } | null, terms: { version: string, acceptedAt: string | null } };

export type TermsQueryVariables = Exact<{ [key: string]: never; }>;


export type TermsQuery = { terms: { version: string, acceptedAt: string | null } };

export type AcceptTermsMutationVariables = Exact<{
  version: string;
}>;


export type AcceptTermsMutation = { acceptTerms: { version: string, acceptedAt: string | null } };

export type RegisterMutationVariables = Exact<{
  input: RegisterInput;
}>;


export type RegisterMutation = { register: { accessToken: string, accessTokenExpiresAt: string, refreshToken: string, refreshTokenExpiresAt: string, user: { id: string } } };

export type LoginMutationVariables = Exact<{
  email: string;
  password: string;
}>;


export type LoginMutation = { login: { accessToken: string, accessTokenExpiresAt: string, refreshToken: string, refreshTokenExpiresAt: string, user: { id: string } } };

export type RefreshMutationVariables = Exact<{
  token: string;
}>;


export type RefreshMutation = { refreshToken: { accessToken: string, accessTokenExpiresAt: string, refreshToken: string, refreshTokenExpiresAt: string, user: { id: string } } };

export type LogoutMutationVariables = Exact<{
  token: string;
}>;


export type LogoutMutation = { logout: boolean };

export type SubmitVerificationMutationVariables = Exact<{
  input: VerificationInput;
}>;


export type SubmitVerificationMutation = { submitVerification: { id: string | null, status: VerificationStatus, reason: string | null } };

export type DrawFieldsFragment = { id: string, number: number, phase: DrawPhase, openRound: BettingRound | null, roundClosesAt: string | null, minStake: string, maxStake: string, board: Array<string>, burned: Array<string>, openedAt: string, settledAt: string | null, voidReason: string | null, voidKind: VoidKind | null, positions: Array<{ number: number, cards: Array<string>, status: PositionStatus, bestHand: { category: HandCategory, description: string, cards: Array<string> } | null }>, shuffle: { commitment: string, publicSeed: string | null, serverSeed: string | null }, chances: Array<{ round: BettingRound, suspendAt: string, chances: Array<{ market: Market, selection: string, probability: number, suspended: boolean }> }> };

export type ChanceFieldsFragment = { round: BettingRound, suspendAt: string, chances: Array<{ market: Market, selection: string, probability: number, suspended: boolean }> };

export type OddsFieldsFragment = { phase: DrawPhase, boards: number, exact: boolean, leaders: Array<number>, positions: Array<{ position: number, win: number, tie: number, equity: number }>, categories: Array<{ category: HandCategory, probability: number }> };

export type PoolFieldsFragment = { round: BettingRound, market: Market, gross: string, net: string, bets: number, selections: Array<{ selection: string, stake: string, bets: number, impliedCoefficient: string | null }> };

export type ResultFieldsFragment = { winners: Array<number>, winningCategory: HandCategory | null, leadersAfterFlop: Array<number>, leadersAfterTurn: Array<number>, settledAt: string, pools: Array<{ round: BettingRound, market: Market, gross: string, bets: number, commission: string, jackpotContribution: string, net: string, winningSelections: Array<string>, coefficient: string | null, paid: string, breakage: string, minusPoolTopUp: string, jackpotPaid: string, refunded: boolean, refundReason: string | null, categories: Array<{ category: number, fund: string, jackpot: string, coupons: number, stakes: string, coefficient: string | null, paid: string }> }> };

export type TablesQueryVariables = Exact<{ [key: string]: never; }>;


export type TablesQuery = { tables: Array<{ id: string, name: string, positions: number, status: TableStatus, lastSeq: number, settings: { minStake: string, maxStake: string, commission: string }, currentDraw: { id: string, number: number, phase: DrawPhase, openRound: BettingRound | null, roundClosesAt: string | null, beaconDelay: { street: Street, round: number, since: string, deadline: string } | null } | null }>, jackpot: { balance: string, enabled: boolean } };

export type TableSnapshotQueryVariables = Exact<{
  id: string | number;
}>;


export type TableSnapshotQuery = { table: { id: string, name: string, positions: number, status: TableStatus, lastSeq: number, settings: { minStake: string, maxStake: string, commission: string, roundSeconds: Array<number> }, currentDraw: { id: string, number: number, phase: DrawPhase, openRound: BettingRound | null, roundClosesAt: string | null, minStake: string, maxStake: string, board: Array<string>, burned: Array<string>, openedAt: string, settledAt: string | null, voidReason: string | null, voidKind: VoidKind | null, odds: { phase: DrawPhase, boards: number, exact: boolean, leaders: Array<number>, positions: Array<{ position: number, win: number, tie: number, equity: number }>, categories: Array<{ category: HandCategory, probability: number }> } | null, pools: Array<{ round: BettingRound, market: Market, gross: string, net: string, bets: number, selections: Array<{ selection: string, stake: string, bets: number, impliedCoefficient: string | null }> }>, result: { winners: Array<number>, winningCategory: HandCategory | null, leadersAfterFlop: Array<number>, leadersAfterTurn: Array<number>, settledAt: string, pools: Array<{ round: BettingRound, market: Market, gross: string, bets: number, commission: string, jackpotContribution: string, net: string, winningSelections: Array<string>, coefficient: string | null, paid: string, breakage: string, minusPoolTopUp: string, jackpotPaid: string, refunded: boolean, refundReason: string | null, categories: Array<{ category: number, fund: string, jackpot: string, coupons: number, stakes: string, coefficient: string | null, paid: string }> }> } | null, positions: Array<{ number: number, cards: Array<string>, status: PositionStatus, bestHand: { category: HandCategory, description: string, cards: Array<string> } | null }>, shuffle: { commitment: string, publicSeed: string | null, serverSeed: string | null }, chances: Array<{ round: BettingRound, suspendAt: string, chances: Array<{ market: Market, selection: string, probability: number, suspended: boolean }> }> } | null } | null, jackpot: { balance: string, enabled: boolean } };

export type TableEventsSubscriptionVariables = Exact<{
  tableId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type TableEventsSubscription = { tableEvents:
    | { __typename: 'BeaconDelayed', seq: number, tableId: string, at: string }
    | { __typename: 'CardsDealt', drawId: string, street: Street, board: Array<string>, seq: number, tableId: string, at: string, positions: Array<{ number: number, cards: Array<string>, status: PositionStatus, bestHand: { category: HandCategory, description: string, cards: Array<string> } | null }> }
    | { __typename: 'DrawOpened', drawId: string, number: number, positionCount: number, minStake: string, commitment: string, seq: number, tableId: string, at: string, beacons: { streets: Array<{ round: number, closesAt: string }> } | null, odds: { phase: DrawPhase, boards: number, exact: boolean, leaders: Array<number>, positions: Array<{ position: number, win: number, tie: number, equity: number }>, categories: Array<{ category: HandCategory, probability: number }> } | null }
    | { __typename: 'DrawSettled', drawId: string, serverSeed: string, seq: number, tableId: string, at: string, result: { winners: Array<number>, winningCategory: HandCategory | null, leadersAfterFlop: Array<number>, leadersAfterTurn: Array<number>, settledAt: string, pools: Array<{ round: BettingRound, market: Market, gross: string, bets: number, commission: string, jackpotContribution: string, net: string, winningSelections: Array<string>, coefficient: string | null, paid: string, breakage: string, minusPoolTopUp: string, jackpotPaid: string, refunded: boolean, refundReason: string | null, categories: Array<{ category: number, fund: string, jackpot: string, coupons: number, stakes: string, coefficient: string | null, paid: string }> }> }, positions: Array<{ number: number, cards: Array<string>, status: PositionStatus, bestHand: { category: HandCategory, description: string, cards: Array<string> } | null }> }
    | { __typename: 'DrawVoided', drawId: string, reason: string, voidKind: VoidKind, serverSeed: string, seq: number, tableId: string, at: string, result: { winners: Array<number>, winningCategory: HandCategory | null, leadersAfterFlop: Array<number>, leadersAfterTurn: Array<number>, settledAt: string, pools: Array<{ round: BettingRound, market: Market, gross: string, bets: number, commission: string, jackpotContribution: string, net: string, winningSelections: Array<string>, coefficient: string | null, paid: string, breakage: string, minusPoolTopUp: string, jackpotPaid: string, refunded: boolean, refundReason: string | null, categories: Array<{ category: number, fund: string, jackpot: string, coupons: number, stakes: string, coefficient: string | null, paid: string }> }> } }
    | { __typename: 'OddsUpdated', drawId: string, seq: number, tableId: string, at: string, odds: { phase: DrawPhase, boards: number, exact: boolean, leaders: Array<number>, positions: Array<{ position: number, win: number, tie: number, equity: number }>, categories: Array<{ category: HandCategory, probability: number }> } | null }
    | { __typename: 'PoolUpdated', drawId: string, seq: number, tableId: string, at: string, pool: { round: BettingRound, market: Market, gross: string, net: string, bets: number, selections: Array<{ selection: string, stake: string, bets: number, impliedCoefficient: string | null }> } }
    | { __typename: 'RoundClosed', drawId: string, round: BettingRound, publicSeed: string | null, seq: number, tableId: string, at: string, betRoot: { round: BettingRound, root: string, numBets: number, stakes: string, publishedAt: string | null } | null }
    | { __typename: 'RoundOpened', drawId: string, round: BettingRound, closesAt: string, seq: number, tableId: string, at: string, chances: { round: BettingRound, suspendAt: string, chances: Array<{ market: Market, selection: string, probability: number, suspended: boolean }> } | null }
    | { __typename: 'TablePaused', seq: number, tableId: string, at: string }
    | { __typename: 'TableResumed', seq: number, tableId: string, at: string }
    | { __typename: 'TableSnapshot', status: TableStatus, seq: number, tableId: string, at: string, jackpot: { balance: string, enabled: boolean }, draw: { drawId: string, number: number, phase: DrawPhase, openRound: BettingRound | null, roundClosesAt: string | null, minStake: string, commitment: string, publicSeed: string | null, serverSeed: string | null, board: Array<string>, voidReason: string | null, draw: { id: string, voidKind: VoidKind | null } | null, beacons: { streets: Array<{ round: number, closesAt: string }> } | null, positions: Array<{ number: number, cards: Array<string>, status: PositionStatus, bestHand: { category: HandCategory, description: string, cards: Array<string> } | null }>, odds: { phase: DrawPhase, boards: number, exact: boolean, leaders: Array<number>, positions: Array<{ position: number, win: number, tie: number, equity: number }>, categories: Array<{ category: HandCategory, probability: number }> } | null, pools: Array<{ round: BettingRound, market: Market, gross: string, net: string, bets: number, selections: Array<{ selection: string, stake: string, bets: number, impliedCoefficient: string | null }> }>, result: { winners: Array<number>, winningCategory: HandCategory | null, leadersAfterFlop: Array<number>, leadersAfterTurn: Array<number>, settledAt: string, pools: Array<{ round: BettingRound, market: Market, gross: string, bets: number, commission: string, jackpotContribution: string, net: string, winningSelections: Array<string>, coefficient: string | null, paid: string, breakage: string, minusPoolTopUp: string, jackpotPaid: string, refunded: boolean, refundReason: string | null, categories: Array<{ category: number, fund: string, jackpot: string, coupons: number, stakes: string, coefficient: string | null, paid: string }> }> } | null, chances: { round: BettingRound, suspendAt: string, chances: Array<{ market: Market, selection: string, probability: number, suspended: boolean }> } | null } | null }
   };

export type DrawBurnsQueryVariables = Exact<{
  id: string | number;
}>;


export type DrawBurnsQuery = { draw: { id: string, burned: Array<string> } | null };

export type MyEventsSubscriptionVariables = Exact<{ [key: string]: never; }>;


export type MyEventsSubscription = { myEvents:
    | { __typename: 'BalanceChanged', balance: string, at: string }
    | { __typename: 'BetAccepted', at: string, bet: { id: string, status: BetStatus } }
    | { __typename: 'BetSettled', at: string, bet: { id: string, status: BetStatus, payout: string | null } }
    | { __typename: 'HoldemHandUpdated', at: string, hand: { id: string } }
    | { __typename: 'RealityCheckReminder', at: string }
   };

export type PlaceBetMutationVariables = Exact<{
  input: PlaceBetInput;
}>;


export type PlaceBetMutation = { placeBet: { id: string, round: BettingRound, market: Market, selection: string, stake: string, status: BetStatus, payout: string | null, placedAt: string } };

export type MyBetsQueryVariables = Exact<{
  drawId?: string | number | null | undefined;
  first?: number | null | undefined;
}>;


export type MyBetsQuery = { myBets: { edges: Array<{ node: { id: string, round: BettingRound, market: Market, selection: string, stake: string, status: BetStatus, payout: string | null, placedAt: string, settledAt: string | null, draw: { id: string, number: number } } }> }, me: { id: string, balance: string } | null };

export type MyBetProofsQueryVariables = Exact<{
  drawId: string | number;
}>;


export type MyBetProofsQuery = { myBets: { edges: Array<{ node: { id: string, round: BettingRound, market: Market, selection: string, stake: string, placedAt: string, inclusionProof: { index: number, size: number, path: Array<string>, leafBytes: string, root: { round: BettingRound, root: string, numBets: number, stakes: string } } | null } }> } };

export type MyLedgerQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type MyLedgerQuery = { myLedger: { edges: Array<{ node: { id: string, transferId: string, kind: LedgerEntryKind, amount: string, balanceAfter: string, createdAt: string, betId: string | null, round: BettingRound | null, market: Market | null, holdemHandId: string | null, draw: { id: string, number: number, table: { id: string, name: string } } | null } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DrawResultJsonQueryVariables = Exact<{
  id: string | number;
}>;


export type DrawResultJsonQuery = { draw: { id: string, number: number, phase: DrawPhase, resultJson: string | null } | null };

export type HandFieldsFragment = { id: string, phase: HoldemPhase, turn: number | null, decisionDeadline: string | null, board: Array<string>, dealerCards: Array<string>, dealerQualifies: boolean | null, cut: string | null, totalStake: string, totalReturn: string | null, net: string | null, createdAt: string, settledAt: string | null, dealerHand: { category: HandCategory, description: string, cards: Array<string> } | null, boxes: Array<{ index: number, ante: string, bonus: string, bet: string, decision: HoldemDecision | null, timedOut: boolean, cards: Array<string>, outcome: HoldemOutcome | null, anteReturn: string | null, betReturn: string | null, bonusReturn: string | null, hand: { category: HandCategory, description: string, cards: Array<string> } | null, bonusHand: { category: HandCategory, description: string, cards: Array<string> } | null }>, shuffle: { commitment: string, publicSeed: string | null, serverSeed: string | null } };

export type HoldemSettingsQueryVariables = Exact<{ [key: string]: never; }>;


export type HoldemSettingsQuery = { holdemSettings: { minAnte: string, maxAnte: string, maxBonus: string, decisionSeconds: number, antePaytable: Array<{ category: HandCategory, odds: number }>, bonusPaytable: Array<{ category: HandCategory, odds: number }> } };

export type HoldemCommitMutationVariables = Exact<{ [key: string]: never; }>;


export type HoldemCommitMutation = { holdemCommit: { commitment: string, createdAt: string } };

export type HoldemStartMutationVariables = Exact<{
  input: HoldemStartInput;
}>;


export type HoldemStartMutation = { holdemStart: { id: string, phase: HoldemPhase, turn: number | null, decisionDeadline: string | null, board: Array<string>, dealerCards: Array<string>, dealerQualifies: boolean | null, cut: string | null, totalStake: string, totalReturn: string | null, net: string | null, createdAt: string, settledAt: string | null, dealerHand: { category: HandCategory, description: string, cards: Array<string> } | null, boxes: Array<{ index: number, ante: string, bonus: string, bet: string, decision: HoldemDecision | null, timedOut: boolean, cards: Array<string>, outcome: HoldemOutcome | null, anteReturn: string | null, betReturn: string | null, bonusReturn: string | null, hand: { category: HandCategory, description: string, cards: Array<string> } | null, bonusHand: { category: HandCategory, description: string, cards: Array<string> } | null }>, shuffle: { commitment: string, publicSeed: string | null, serverSeed: string | null } } };

export type HoldemDecideMutationVariables = Exact<{
  input: HoldemDecideInput;
}>;


export type HoldemDecideMutation = { holdemDecide: { id: string, phase: HoldemPhase, turn: number | null, decisionDeadline: string | null, board: Array<string>, dealerCards: Array<string>, dealerQualifies: boolean | null, cut: string | null, totalStake: string, totalReturn: string | null, net: string | null, createdAt: string, settledAt: string | null, dealerHand: { category: HandCategory, description: string, cards: Array<string> } | null, boxes: Array<{ index: number, ante: string, bonus: string, bet: string, decision: HoldemDecision | null, timedOut: boolean, cards: Array<string>, outcome: HoldemOutcome | null, anteReturn: string | null, betReturn: string | null, bonusReturn: string | null, hand: { category: HandCategory, description: string, cards: Array<string> } | null, bonusHand: { category: HandCategory, description: string, cards: Array<string> } | null }>, shuffle: { commitment: string, publicSeed: string | null, serverSeed: string | null } } };

export type HoldemHandQQueryVariables = Exact<{
  id: string | number;
}>;


export type HoldemHandQQuery = { holdemHand: { id: string, phase: HoldemPhase, turn: number | null, decisionDeadline: string | null, board: Array<string>, dealerCards: Array<string>, dealerQualifies: boolean | null, cut: string | null, totalStake: string, totalReturn: string | null, net: string | null, createdAt: string, settledAt: string | null, dealerHand: { category: HandCategory, description: string, cards: Array<string> } | null, boxes: Array<{ index: number, ante: string, bonus: string, bet: string, decision: HoldemDecision | null, timedOut: boolean, cards: Array<string>, outcome: HoldemOutcome | null, anteReturn: string | null, betReturn: string | null, bonusReturn: string | null, hand: { category: HandCategory, description: string, cards: Array<string> } | null, bonusHand: { category: HandCategory, description: string, cards: Array<string> } | null }>, shuffle: { commitment: string, publicSeed: string | null, serverSeed: string | null } } | null };

export type PendingVerificationsQueryVariables = Exact<{ [key: string]: never; }>;


export type PendingVerificationsQuery = { pendingVerifications: { edges: Array<{ node: { id: string, documentType: DocumentType, documentHash: string, dateOfBirth: string, submittedAt: string, user: { id: string, email: string, name: string, age: number, dateOfBirth: string } } }> } };

export type DecideVerificationMutationVariables = Exact<{
  input: DecideVerificationInput;
}>;


export type DecideVerificationMutation = { decideVerification: { id: string | null, status: VerificationStatus } };

export type UserByIdQueryVariables = Exact<{
  id: string | number;
}>;


export type UserByIdQuery = { user: { id: string, email: string, name: string, dateOfBirth: string, role: Role, age: number, canStake: boolean, balance: string, verification: { id: string | null, status: VerificationStatus, documentType: DocumentType | null, reason: string | null, rejectReason: RejectionReason | null, submittedAt: string | null, decidedAt: string | null } } | null };

export type UserByEmailQueryVariables = Exact<{
  email: string;
}>;


export type UserByEmailQuery = { userByEmail: { id: string, email: string, name: string, role: Role, balance: string, disabledAt: string | null, disabledReason: string | null } | null };

export type DisableAccountMutationVariables = Exact<{
  userId: string | number;
  reason: string;
}>;


export type DisableAccountMutation = { disableAccount: { id: string, disabledAt: string | null, disabledReason: string | null } };

export type EnableAccountMutationVariables = Exact<{
  userId: string | number;
}>;


export type EnableAccountMutation = { enableAccount: { id: string, disabledAt: string | null, disabledReason: string | null } };

export type AuditLogQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  actorId?: string | number | null | undefined;
  action?: string | null | undefined;
  tableId?: string | number | null | undefined;
  from?: string | null | undefined;
  to?: string | null | undefined;
}>;


export type AuditLogQuery = { auditLog: { edges: Array<{ node: { id: string, action: string, subject: string, detail: string, createdAt: string, actor: { id: string, email: string } | null, changes: Array<{ field: string, from: string, to: string }> } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DepositMutationVariables = Exact<{
  input: CashInput;
}>;


export type DepositMutation = { deposit: { transferId: string, amount: string, balance: string } };

export type WithdrawMutationVariables = Exact<{
  input: CashInput;
}>;


export type WithdrawMutation = { withdraw: { transferId: string, amount: string, balance: string } };

export type SetMinStakeMutationVariables = Exact<{
  tableId: string | number;
  amount: string;
}>;


export type SetMinStakeMutation = { setMinStake: { id: string, settings: { minStake: string, commission: string } } };

export type SetCommissionMutationVariables = Exact<{
  tableId: string | number;
  percent: string;
}>;


export type SetCommissionMutation = { setCommission: { id: string, settings: { minStake: string, commission: string } } };

export type PauseTableMutationVariables = Exact<{
  tableId: string | number;
}>;


export type PauseTableMutation = { pauseTable: { id: string, status: TableStatus } };

export type ResumeTableMutationVariables = Exact<{
  tableId: string | number;
}>;


export type ResumeTableMutation = { resumeTable: { id: string, status: TableStatus } };

export type VoidDrawMutationVariables = Exact<{
  drawId: string | number;
  reason: string;
}>;


export type VoidDrawMutation = { voidDraw: { id: string, phase: DrawPhase, voidReason: string | null } };

export type JackpotTopUpMutationVariables = Exact<{
  amount: string;
  key: string;
}>;


export type JackpotTopUpMutation = { jackpotTopUp: { balance: string, enabled: boolean } };

export type SetJackpotEnabledMutationVariables = Exact<{
  enabled: boolean;
}>;


export type SetJackpotEnabledMutation = { setJackpotEnabled: { balance: string, enabled: boolean } };

export type DailyReportQueryVariables = Exact<{
  from: string;
  to: string;
}>;


export type DailyReportQuery = { dailyReport: { from: string, to: string, rows: Array<{ day: string, game: ReportGame, tableId: string | null, tableName: string | null, figures: { bets: number, handle: string, payouts: string, refunds: string, ggr: string, holdPercent: string, commission: string, breakage: string, topUps: string, jackpotIn: string, jackpotOut: string, jackpotTopUps: string, ante: string, bonus: string, bet: string, deposits: string, withdrawals: string } }>, totals: Array<{ game: ReportGame | null, figures: { bets: number, handle: string, payouts: string, refunds: string, ggr: string, holdPercent: string, commission: string, breakage: string, topUps: string, jackpotIn: string, jackpotOut: string, jackpotTopUps: string, ante: string, bonus: string, bet: string, deposits: string, withdrawals: string } }> } };

export type LiabilityQueryVariables = Exact<{ [key: string]: never; }>;


export type LiabilityQuery = { liability: { wallets: string, escrow: string, jackpot: string, openHands: string, total: string, ledger: string, reconciled: boolean } };

export type TopPlayersQueryVariables = Exact<{
  from: string;
  to: string;
  winners: boolean;
}>;


export type TopPlayersQuery = { topPlayers: Array<{ userId: string, email: string, name: string, bets: number, staked: string, returned: string, net: string }> };

export type WebhookEndpointsQueryVariables = Exact<{ [key: string]: never; }>;


export type WebhookEndpointsQuery = { webhookEndpoints: Array<{ id: string, url: string, eventTypes: Array<WebhookEventType>, description: string, createdAt: string, delivered: number, lastDeliveredAt: string | null, attempts: number, failingSince: string | null, lastError: string | null, parkedAt: string | null }> };

export type CreateWebhookEndpointMutationVariables = Exact<{
  input: CreateWebhookEndpointInput;
}>;


export type CreateWebhookEndpointMutation = { createWebhookEndpoint: { secret: string, endpoint: { id: string } } };

export type DeleteWebhookEndpointMutationVariables = Exact<{
  id: string | number;
}>;


export type DeleteWebhookEndpointMutation = { deleteWebhookEndpoint: boolean };

export type ReplayWebhookEndpointMutationVariables = Exact<{
  id: string | number;
  from?: string | null | undefined;
}>;


export type ReplayWebhookEndpointMutation = { replayWebhookEndpoint: { id: string } };

export type BettingStopQueryVariables = Exact<{ [key: string]: never; }>;


export type BettingStopQuery = { bettingStop: { stopped: boolean, since: string | null } };

export type StopAllBettingMutationVariables = Exact<{
  reason: string;
}>;


export type StopAllBettingMutation = { stopAllBetting: { stopped: boolean, since: string | null } };

export type ResumeAllBettingMutationVariables = Exact<{ [key: string]: never; }>;


export type ResumeAllBettingMutation = { resumeAllBetting: { stopped: boolean, since: string | null } };

export type PlayersQueryVariables = Exact<{
  search: string;
}>;


export type PlayersQuery = { players: Array<{ id: string, email: string, name: string, role: Role, balance: string, verification: { status: VerificationStatus } }> };

export type PlayerPageQueryVariables = Exact<{
  id: string | number;
  from: string;
  to: string;
}>;


export type PlayerPageQuery = { user: { id: string, email: string, name: string, dateOfBirth: string, role: Role, balance: string, disabledAt: string | null, verification: { status: VerificationStatus, documentType: DocumentType | null, submittedAt: string | null, decidedAt: string | null } } | null, playerProtection: { limits: Array<{ kind: LimitKind, period: LimitPeriod, amount: string | null, pending: boolean, pendingAmount: string | null, pendingFrom: string | null }>, exclusion: { kind: ExclusionKind, since: string, until: string | null, active: boolean } | null }, playerSessions: Array<{ start: string, end: string, bets: number, wagered: string, won: string, deposited: string, withdrawn: string, startBalance: string, endBalance: string, endReason: PlayerSessionEnd }>, playerBets: { edges: Array<{ node: { id: string, round: BettingRound, market: Market, selection: string, stake: string, status: BetStatus, payout: string | null, placedAt: string, draw: { id: string, number: number } } }> }, playerLedger: { edges: Array<{ node: { id: string, kind: LedgerEntryKind, amount: string, balanceAfter: string, memo: string, createdAt: string } }> } };

export type ProtectionEventsQueryVariables = Exact<{
  from: string;
  to: string;
}>;


export type ProtectionEventsQuery = { protectionEvents: Array<{ userId: string, email: string, name: string, kind: string, count: number, first: string, last: string }> };

export type MyProtectionQueryVariables = Exact<{ [key: string]: never; }>;


export type MyProtectionQuery = { myProtection: { limits: Array<{ kind: LimitKind, period: LimitPeriod, amount: string | null, pending: boolean, pendingAmount: string | null, pendingFrom: string | null }>, exclusion: { kind: ExclusionKind, since: string, until: string | null, active: boolean } | null, counters: Array<{ period: LimitPeriod, start: string, deposits: string, stakes: string, returns: string, netLoss: string }> } };

export type SetLimitMutationVariables = Exact<{
  input: SetLimitInput;
}>;


export type SetLimitMutation = { setLimit: { kind: LimitKind, period: LimitPeriod, amount: string | null, pending: boolean, pendingAmount: string | null, pendingFrom: string | null } };

export type TakeTimeOutMutationVariables = Exact<{
  hours: number;
}>;


export type TakeTimeOutMutation = { takeTimeOut: { kind: ExclusionKind, since: string, until: string | null, active: boolean } };

export type SelfExcludeMutationVariables = Exact<{
  months?: number | null | undefined;
}>;


export type SelfExcludeMutation = { selfExclude: { kind: ExclusionKind, since: string, until: string | null, active: boolean } };

export type MyBetsPageQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
  tableId?: string | number | null | undefined;
  market?: Market | null | undefined;
  status?: BetStatus | null | undefined;
}>;


export type MyBetsPageQuery = { myBets: { edges: Array<{ node: { id: string, round: BettingRound, market: Market, selection: string, stake: string, status: BetStatus, payout: string | null, placedAt: string, settledAt: string | null, draw: { id: string, number: number, table: { id: string, name: string } } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type DrawHeadingQueryVariables = Exact<{
  id: string | number;
}>;


export type DrawHeadingQuery = { draw: { id: string, number: number, table: { id: string, name: string } } | null };

export type CreateTableMutationVariables = Exact<{
  input: TableInput;
}>;


export type CreateTableMutation = { createTable: { id: string, name: string, positions: number } };

export type ApiKeysQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiKeysQuery = { apiKeys: Array<{ id: string, name: string, requestsPerMinute: number, createdAt: string, revokedAt: string | null }> };

export type CreateApiKeyMutationVariables = Exact<{
  input: CreateApiKeyInput;
}>;


export type CreateApiKeyMutation = { createApiKey: { key: string, apiKey: { id: string, name: string, requestsPerMinute: number, createdAt: string, revokedAt: string | null } } };

export type RevokeApiKeyMutationVariables = Exact<{
  id: string | number;
}>;


export type RevokeApiKeyMutation = { revokeApiKey: { id: string, revokedAt: string | null } };

export type ApiTermsQueryVariables = Exact<{ [key: string]: never; }>;


export type ApiTermsQuery = { terms: { version: string, acceptedAt: string | null } };

export type ApiRegisterMutationVariables = Exact<{
  input: RegisterInput;
}>;


export type ApiRegisterMutation = { register: { accessToken: string, refreshToken: string, user: { id: string, balance: string, canStake: boolean, verification: { status: VerificationStatus } } } };

export type ApiLoginMutationVariables = Exact<{
  email: string;
  password: string;
}>;


export type ApiLoginMutation = { login: { accessToken: string, user: { id: string, role: Role } } };

export type ApiSubmitVerificationMutationVariables = Exact<{
  input: VerificationInput;
}>;


export type ApiSubmitVerificationMutation = { submitVerification: { id: string | null, status: VerificationStatus } };

export type ApiDecideVerificationMutationVariables = Exact<{
  input: DecideVerificationInput;
}>;


export type ApiDecideVerificationMutation = { decideVerification: { status: VerificationStatus } };

export type ApiDepositMutationVariables = Exact<{
  input: CashInput;
}>;


export type ApiDepositMutation = { deposit: { balance: string } };

export type ApiCreateTableMutationVariables = Exact<{
  input: TableInput;
}>;


export type ApiCreateTableMutation = { createTable: { id: string, name: string, positions: number, settings: { commission: string, minStake: string } } };

export type ApiTableQueryVariables = Exact<{
  id: string | number;
}>;


export type ApiTableQuery = { table: { id: string, name: string, positions: number, lastSeq: number, currentDraw: { id: string, number: number, phase: DrawPhase, openRound: BettingRound | null, roundClosesAt: string | null, minStake: string, board: Array<string>, positions: Array<{ number: number, cards: Array<string>, status: PositionStatus, bestHand: { category: HandCategory, description: string } | null }>, pools: Array<{ round: BettingRound, market: Market, gross: string, selections: Array<{ selection: string, stake: string, impliedCoefficient: string | null }> }> } | null } | null };

export type ApiTableEventsSubscriptionVariables = Exact<{
  tableId: string | number;
  afterSeq?: number | null | undefined;
}>;


export type ApiTableEventsSubscription = { tableEvents:
    | { __typename: 'BeaconDelayed', seq: number }
    | { __typename: 'CardsDealt', seq: number }
    | { __typename: 'DrawOpened', seq: number }
    | { __typename: 'DrawSettled', seq: number }
    | { __typename: 'DrawVoided', seq: number }
    | { __typename: 'OddsUpdated', seq: number }
    | { __typename: 'PoolUpdated', seq: number }
    | { __typename: 'RoundClosed', seq: number }
    | { __typename: 'RoundOpened', seq: number }
    | { __typename: 'TablePaused', seq: number }
    | { __typename: 'TableResumed', seq: number }
    | { __typename: 'TableSnapshot', seq: number }
   };

export type ApiPlaceBetMutationVariables = Exact<{
  input: PlaceBetInput;
}>;


export type ApiPlaceBetMutation = { placeBet: { id: string, round: BettingRound, market: Market, selection: string, stake: string, status: BetStatus } };

export type ApiMyBetsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ApiMyBetsQuery = { myBets: { edges: Array<{ cursor: string, node: { id: string, stake: string, status: BetStatus, draw: { id: string, number: number, table: { id: string, name: string } } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type ApiMyLedgerQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type ApiMyLedgerQuery = { myLedger: { edges: Array<{ node: { kind: LedgerEntryKind, amount: string, balanceAfter: string, memo: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };
