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
  memo: string | null | undefined;
  userId: string | number;
};

export type DecideVerificationInput = {
  approve: boolean;
  id: string | number;
  reason: string | null | undefined;
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

/** An EXPRESS coupon: the leader after the flop, the leader after the turn and the winner after the river (a position may repeat). */
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

export type Market =
  /** The category of the winning hand. */
  | 'COMBINATION'
  /** A coupon: leader after the flop, leader after the turn, winner after the river, written "f-t-r". */
  | 'EXPRESS'
  /** Which position wins. */
  | 'WIN';

export type PlaceBetInput = {
  drawId: string | number;
  idempotencyKey: string;
  /** What the bet backs; its market follows from it. */
  selection: SelectionInput;
  stake: string;
};

export type PositionStatus =
  | 'LOSS'
  | 'PENDING'
  | 'WIN';

export type RegisterInput = {
  dateOfBirth: string;
  email: string;
  name: string;
  password: string;
};

export type Role =
  | 'ADMIN'
  | 'AFFILIATE'
  | 'PLAYER';

/** What a bet backs: exactly one of its fields, which names the market. */
export type SelectionInput =
  {   /** COMBINATION: the category of the winning hand. */
  combination: HandCategory; express?: never; position?: never; }
  |  { combination?: never;   /** EXPRESS: a coupon of three positions. */
  express: ExpressInput; position?: never; }
  |  { combination?: never; express?: never;   /** WIN: the position that wins. */
  position: number; };

export type TableInput = {
  cardIntervalMs: number | null | undefined;
  commission: string | null | undefined;
  expressShares: Array<string> | null | undefined;
  maxStake: string | null | undefined;
  minStake: string | null | undefined;
  name: string;
  positions: number;
  resultSeconds: number | null | undefined;
  roundSeconds: Array<number> | null | undefined;
};

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

export type RegisterMutationVariables = Exact<{
  input: RegisterInput;
}>;


export type RegisterMutation = { register: { accessToken: string, refreshToken: string, user: { id: string, balance: string, canStake: boolean, verification: { status: VerificationStatus } } } };

export type LoginMutationVariables = Exact<{
  email: string;
  password: string;
}>;


export type LoginMutation = { login: { accessToken: string, user: { id: string, role: Role } } };

export type SubmitVerificationMutationVariables = Exact<{
  input: VerificationInput;
}>;


export type SubmitVerificationMutation = { submitVerification: { id: string | null, status: VerificationStatus } };

export type DecideVerificationMutationVariables = Exact<{
  input: DecideVerificationInput;
}>;


export type DecideVerificationMutation = { decideVerification: { status: VerificationStatus } };

export type DepositMutationVariables = Exact<{
  input: CashInput;
}>;


export type DepositMutation = { deposit: { balance: string } };

export type CreateTableMutationVariables = Exact<{
  input: TableInput;
}>;


export type CreateTableMutation = { createTable: { id: string, name: string, positions: number, settings: { commission: string, minStake: string } } };

export type TableQueryVariables = Exact<{
  id: string | number;
}>;


export type TableQuery = { table: { id: string, name: string, positions: number, lastSeq: number, currentDraw: { id: string, number: number, phase: DrawPhase, openRound: BettingRound | null, roundClosesAt: string | null, minStake: string, board: Array<string>, positions: Array<{ number: number, cards: Array<string>, status: PositionStatus, bestHand: { category: HandCategory, description: string } | null }>, pools: Array<{ round: BettingRound, market: Market, gross: string, selections: Array<{ selection: string, stake: string, impliedCoefficient: string | null }> }> } | null } | null };

export type TableEventsSubscriptionVariables = Exact<{
  tableId: string | number;
  afterSeq: number | null | undefined;
}>;


export type TableEventsSubscription = { tableEvents:
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

export type PlaceBetMutationVariables = Exact<{
  input: PlaceBetInput;
}>;


export type PlaceBetMutation = { placeBet: { id: string, round: BettingRound, market: Market, selection: string, stake: string, status: BetStatus } };

export type MyBetsQueryVariables = Exact<{
  first: number | null | undefined;
  after: string | null | undefined;
}>;


export type MyBetsQuery = { myBets: { edges: Array<{ cursor: string, node: { id: string, stake: string, status: BetStatus, draw: { id: string, number: number, table: { id: string, name: string } } } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type MyLedgerQueryVariables = Exact<{
  first: number | null | undefined;
  after: string | null | undefined;
}>;


export type MyLedgerQuery = { myLedger: { edges: Array<{ node: { kind: LedgerEntryKind, amount: string, balanceAfter: string, memo: string } }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };
