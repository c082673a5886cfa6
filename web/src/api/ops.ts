// Every GraphQL operation the client sends. graphql-codegen reads these
// /* GraphQL */ strings and generates their result and variable types into
// src/gql/graphql.ts. Fragments are appended at send time (see withFragments).

export const USER_FIELDS = /* GraphQL */ `
  fragment UserFields on User {
    id email name dateOfBirth role age canStake balance
    verification { id status documentType reason rejectReason submittedAt decidedAt }
  }
`;

export const AUTH_FIELDS = /* GraphQL */ `
  fragment AuthFields on AuthPayload {
    accessToken accessTokenExpiresAt refreshToken refreshTokenExpiresAt
    user { id }
  }
`;

export const Me = /* GraphQL */ `query Me { me { ...UserFields } terms { version acceptedAt } }`;
export const Terms = /* GraphQL */ `query Terms { terms { version acceptedAt } }`;
export const AcceptTerms = /* GraphQL */ `
  mutation AcceptTerms($version: String!) { acceptTerms(version: $version) { version acceptedAt } }
`;

export const Register = /* GraphQL */ `
  mutation Register($input: RegisterInput!) { register(input: $input) { ...AuthFields } }
`;
export const Login = /* GraphQL */ `
  mutation Login($email: String!, $password: String!) { login(email: $email, password: $password) { ...AuthFields } }
`;
export const Refresh = /* GraphQL */ `
  mutation Refresh($token: String!) { refreshToken(refreshToken: $token) { ...AuthFields } }
`;
export const Logout = /* GraphQL */ `mutation Logout($token: String!) { logout(refreshToken: $token) }`;
export const SubmitVerification = /* GraphQL */ `
  mutation SubmitVerification($input: VerificationInput!) { submitVerification(input: $input) { id status reason } }
`;

export const DRAW_FIELDS = /* GraphQL */ `
  fragment DrawFields on Draw {
    id number phase openRound roundClosesAt minStake maxStake board burned
    openedAt settledAt voidReason voidKind
    positions { number cards status bestHand { category description cards } }
    shuffle { commitment publicSeed serverSeed }
    chances { ...ChanceFields }
  }
`;
export const CHANCE_FIELDS = /* GraphQL */ `
  fragment ChanceFields on RoundChances {
    round suspendAt
    chances { market selection probability suspended }
  }
`;
export const ODDS_FIELDS = /* GraphQL */ `
  fragment OddsFields on Odds {
    phase boards exact leaders
    positions { position win tie equity }
    categories { category probability }
  }
`;
export const POOL_FIELDS = /* GraphQL */ `
  fragment PoolFields on Pool {
    round market gross net bets
    selections { selection stake bets impliedCoefficient }
  }
`;
export const RESULT_FIELDS = /* GraphQL */ `
  fragment ResultFields on DrawResult {
    winners winningCategory leadersAfterFlop leadersAfterTurn settledAt
    pools {
      round market gross bets commission jackpotContribution net winningSelections coefficient
      paid breakage minusPoolTopUp jackpotPaid refunded refundReason
      categories { category fund jackpot coupons stakes coefficient paid }
    }
  }
`;

export const Tables = /* GraphQL */ `
  query Tables {
    tables {
      id name positions status lastSeq
      settings { minStake maxStake commission }
      currentDraw { id number phase openRound roundClosesAt beaconDelay { street round since deadline } }
    }
    jackpot { balance enabled }
  }
`;

export const TableSnapshot = /* GraphQL */ `
  query TableSnapshot($id: ID!) {
    table(id: $id) {
      id name positions status lastSeq
      settings { minStake maxStake commission roundSeconds }
      currentDraw {
        ...DrawFields
        odds { ...OddsFields }
        pools { ...PoolFields }
        result { ...ResultFields }
      }
    }
    jackpot { balance enabled }
  }
`;

export const TableEvents = /* GraphQL */ `
  subscription TableEvents($tableId: ID!, $afterSeq: Int64) {
    tableEvents(tableId: $tableId, afterSeq: $afterSeq) {
      __typename seq tableId at
      ... on TableSnapshot {
        status jackpot { balance enabled }
        draw {
          drawId number phase openRound roundClosesAt minStake commitment publicSeed serverSeed board voidReason
          draw { id voidKind }
          beacons { streets { round closesAt } }
          positions { number cards status bestHand { category description cards } }
          odds { ...OddsFields }
          pools { ...PoolFields }
          result { ...ResultFields }
          chances { ...ChanceFields }
        }
      }
      ... on DrawOpened { drawId number positionCount minStake commitment beacons { streets { round closesAt } } odds { ...OddsFields } }
      ... on RoundOpened { drawId round closesAt chances { ...ChanceFields } }
      ... on RoundClosed { drawId round publicSeed betRoot { round root numBets stakes publishedAt } }
      ... on CardsDealt { drawId street board positions { number cards status bestHand { category description cards } } }
      ... on OddsUpdated { drawId odds { ...OddsFields } }
      ... on PoolUpdated { drawId pool { ...PoolFields } }
      ... on DrawSettled { drawId serverSeed result { ...ResultFields } positions { number cards status bestHand { category description cards } } }
      ... on DrawVoided { drawId reason voidKind serverSeed result { ...ResultFields } }
    }
  }
`;

export const DrawBurns = /* GraphQL */ `query DrawBurns($id: ID!) { draw(id: $id) { id burned } }`;

export const MyEvents = /* GraphQL */ `
  subscription MyEvents {
    myEvents {
      __typename at
      ... on BalanceChanged { balance }
      ... on BetAccepted { bet { id status } }
      ... on BetSettled { bet { id status payout } }
      ... on HoldemHandUpdated { hand { id } }
    }
  }
`;

export const PlaceBet = /* GraphQL */ `
  mutation PlaceBet($input: PlaceBetInput!) {
    placeBet(input: $input) { id round market selection stake status payout placedAt }
  }
`;

export const MyBets = /* GraphQL */ `
  query MyBets($drawId: ID, $first: Int) {
    myBets(drawId: $drawId, first: $first) {
      edges { node { id round market selection stake status payout placedAt settledAt draw { id number } } }
    }
    me { id balance }
  }
`;

export const MyBetProofs = /* GraphQL */ `
  query MyBetProofs($drawId: ID!) {
    myBets(drawId: $drawId, first: 100) {
      edges { node { id round market selection stake placedAt inclusionProof { root { round root numBets stakes } index size path leafBytes } } }
    }
  }
`;

export const MyLedger = /* GraphQL */ `
  query MyLedger($first: Int, $after: String) {
    myLedger(first: $first, after: $after) {
      edges { node { id transferId kind amount balanceAfter createdAt betId round market holdemHandId draw { id number table { id name } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

export const DrawResultJson = /* GraphQL */ `
  query DrawResultJson($id: ID!) { draw(id: $id) { id number phase resultJson } }
`;

export const HOLDEM_FIELDS = /* GraphQL */ `
  fragment HandFields on HoldemHand {
    id phase turn decisionDeadline board dealerCards dealerQualifies
    dealerHand { category description cards }
    boxes {
      index ante bonus bet decision timedOut cards outcome anteReturn betReturn bonusReturn
      hand { category description cards }
      bonusHand { category description cards }
    }
    shuffle { commitment publicSeed serverSeed }
    cut totalStake totalReturn net createdAt settledAt
  }
`;
export const HoldemSettings = /* GraphQL */ `
  query HoldemSettings {
    holdemSettings { minAnte maxAnte maxBonus decisionSeconds antePaytable { category odds } bonusPaytable { category odds } }
  }
`;
export const HoldemCommit = /* GraphQL */ `mutation HoldemCommit { holdemCommit { commitment createdAt } }`;
export const HoldemStart = /* GraphQL */ `
  mutation HoldemStart($input: HoldemStartInput!) { holdemStart(input: $input) { ...HandFields } }
`;
export const HoldemDecide = /* GraphQL */ `
  mutation HoldemDecide($input: HoldemDecideInput!) { holdemDecide(input: $input) { ...HandFields } }
`;
export const HoldemHandQ = /* GraphQL */ `
  query HoldemHandQ($id: ID!) { holdemHand(id: $id) { ...HandFields } }
`;

// ---- admin

export const PendingVerifications = /* GraphQL */ `
  query PendingVerifications {
    pendingVerifications(first: 50) {
      edges { node { id documentType documentHash dateOfBirth submittedAt user { id email name age dateOfBirth } } }
    }
  }
`;
export const DecideVerification = /* GraphQL */ `
  mutation DecideVerification($input: DecideVerificationInput!) { decideVerification(input: $input) { id status } }
`;
export const UserById = /* GraphQL */ `query UserById($id: ID!) { user(id: $id) { ...UserFields } }`;
export const UserByEmail = /* GraphQL */ `query UserByEmail($email: String!) { userByEmail(email: $email) { id email name role balance disabledAt disabledReason } }`;
export const DisableAccount = /* GraphQL */ `
  mutation DisableAccount($userId: ID!, $reason: String!) { disableAccount(userId: $userId, reason: $reason) { id disabledAt disabledReason } }
`;
export const EnableAccount = /* GraphQL */ `
  mutation EnableAccount($userId: ID!) { enableAccount(userId: $userId) { id disabledAt disabledReason } }
`;
export const AuditLog = /* GraphQL */ `
  query AuditLog($first: Int, $after: String, $actorId: ID, $action: String, $tableId: ID, $from: Time, $to: Time) {
    auditLog(first: $first, after: $after, actorId: $actorId, action: $action, tableId: $tableId, from: $from, to: $to) {
      edges { node { id action subject detail createdAt actor { id email } changes { field from to } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;
export const Deposit = /* GraphQL */ `
  mutation Deposit($input: CashInput!) { deposit(input: $input) { transferId amount balance } }
`;
export const Withdraw = /* GraphQL */ `
  mutation Withdraw($input: CashInput!) { withdraw(input: $input) { transferId amount balance } }
`;
export const SetMinStake = /* GraphQL */ `
  mutation SetMinStake($tableId: ID!, $amount: Money!) { setMinStake(tableId: $tableId, amount: $amount) { id settings { minStake commission } } }
`;
export const SetCommission = /* GraphQL */ `
  mutation SetCommission($tableId: ID!, $percent: Percent!) { setCommission(tableId: $tableId, percent: $percent) { id settings { minStake commission } } }
`;
export const PauseTable = /* GraphQL */ `mutation PauseTable($tableId: ID!) { pauseTable(tableId: $tableId) { id status } }`;
export const ResumeTable = /* GraphQL */ `mutation ResumeTable($tableId: ID!) { resumeTable(tableId: $tableId) { id status } }`;
export const VoidDraw = /* GraphQL */ `
  mutation VoidDraw($drawId: ID!, $reason: String!) { voidDraw(drawId: $drawId, reason: $reason) { id phase voidReason } }
`;
export const JackpotTopUp = /* GraphQL */ `
  mutation JackpotTopUp($amount: Money!, $key: String!) { jackpotTopUp(amount: $amount, idempotencyKey: $key) { balance enabled } }
`;
export const SetJackpotEnabled = /* GraphQL */ `
  mutation SetJackpotEnabled($enabled: Boolean!) { setJackpotEnabled(enabled: $enabled) { balance enabled } }
`;

/** withFragments appends every fragment a document spreads (one level of nesting is enough here). */
const FRAGMENTS: Record<string, string> = {
  UserFields: USER_FIELDS, AuthFields: AUTH_FIELDS, DrawFields: DRAW_FIELDS, OddsFields: ODDS_FIELDS,
  PoolFields: POOL_FIELDS, ResultFields: RESULT_FIELDS, HandFields: HOLDEM_FIELDS, ChanceFields: CHANCE_FIELDS,
};
export function withFragments(doc: string): string {
  const need = new Set<string>();
  const scan = (s: string) => {
    for (const m of s.matchAll(/\.\.\.(\w+)/g)) {
      if (!need.has(m[1]) && FRAGMENTS[m[1]]) { need.add(m[1]); scan(FRAGMENTS[m[1]]); }
    }
  };
  scan(doc);
  return [doc, ...[...need].sort().map((n) => FRAGMENTS[n])].join('\n');
}

// The back office's reports (docs/reports.md).
export const DailyReport = /* GraphQL */ `
  query DailyReport($from: Date!, $to: Date!) {
    dailyReport(from: $from, to: $to) {
      from to
      rows { day game tableId tableName figures { bets handle payouts refunds ggr holdPercent commission breakage topUps jackpotIn jackpotOut jackpotTopUps ante bonus bet deposits withdrawals } }
      totals { game figures { bets handle payouts refunds ggr holdPercent commission breakage topUps jackpotIn jackpotOut jackpotTopUps ante bonus bet deposits withdrawals } }
    }
  }
`;
export const Liability = /* GraphQL */ `query Liability { liability { wallets escrow jackpot openHands total ledger reconciled } }`;
export const TopPlayers = /* GraphQL */ `
  query TopPlayers($from: Date!, $to: Date!, $winners: Boolean!) {
    topPlayers(from: $from, to: $to, winners: $winners, first: 10) { userId email name bets staked returned net }
  }
`;

// Partners' webhooks and the emergency stop (docs/partners.md).
export const WebhookEndpoints = /* GraphQL */ `
  query WebhookEndpoints {
    webhookEndpoints { id url eventTypes description createdAt delivered lastDeliveredAt attempts failingSince lastError parkedAt }
  }
`;
export const CreateWebhookEndpoint = /* GraphQL */ `
  mutation CreateWebhookEndpoint($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { endpoint { id } secret } }
`;
export const DeleteWebhookEndpoint = /* GraphQL */ `mutation DeleteWebhookEndpoint($id: ID!) { deleteWebhookEndpoint(id: $id) }`;
export const ReplayWebhookEndpoint = /* GraphQL */ `
  mutation ReplayWebhookEndpoint($id: ID!, $from: String) { replayWebhookEndpoint(id: $id, fromEventId: $from) { id } }
`;
export const BettingStop = /* GraphQL */ `query BettingStop { bettingStop { stopped since } }`;
export const StopAllBetting = /* GraphQL */ `mutation StopAllBetting($reason: String!) { stopAllBetting(reason: $reason) { stopped since } }`;
export const ResumeAllBetting = /* GraphQL */ `mutation ResumeAllBetting { resumeAllBetting { stopped since } }`;

// The players' search and a player's page (admins).
export const Players = /* GraphQL */ `
  query Players($search: String!) { players(search: $search, first: 50) { id email name role balance verification { status } } }
`;
export const PlayerPage = /* GraphQL */ `
  query PlayerPage($id: ID!, $from: Date!, $to: Date!) {
    user(id: $id) { id email name dateOfBirth role balance disabledAt verification { status documentType submittedAt decidedAt } }
    playerProtection(userId: $id) {
      limits { kind period amount pending pendingAmount pendingFrom }
      exclusion { kind since until active }
    }
    playerSessions(userId: $id, from: $from, to: $to) { start end bets wagered won deposited withdrawn startBalance endBalance endReason }
    playerBets(userId: $id, first: 20) { edges { node { id round market selection stake status payout placedAt draw { id number } } } }
    playerLedger(userId: $id, first: 20) { edges { node { id kind amount balanceAfter memo createdAt } } }
  }
`;
export const ProtectionEvents = /* GraphQL */ `
  query ProtectionEvents($from: Date!, $to: Date!) { protectionEvents(from: $from, to: $to) { userId email name kind count first last } }
`;

// Player protection: limits, time-out, self-exclusion, this period's counters.
export const MyProtection = /* GraphQL */ `
  query MyProtection {
    myProtection {
      limits { kind period amount pending pendingAmount pendingFrom }
      exclusion { kind since until active }
      counters { period start deposits stakes returns netLoss }
    }
  }
`;
export const SetLimit = /* GraphQL */ `
  mutation SetLimit($input: SetLimitInput!) { setLimit(input: $input) { kind period amount pending pendingAmount pendingFrom } }
`;
export const TakeTimeOut = /* GraphQL */ `mutation TakeTimeOut($hours: Int!) { takeTimeOut(hours: $hours) { kind since until active } }`;
export const SelfExclude = /* GraphQL */ `mutation SelfExclude($months: Int) { selfExclude(months: $months) { kind since until active } }`;

// The player's bets across draws, a page at a time.
export const MyBetsPage = /* GraphQL */ `
  query MyBetsPage($first: Int, $after: String, $tableId: ID, $market: Market, $status: BetStatus) {
    myBets(first: $first, after: $after, tableId: $tableId, market: $market, status: $status) {
      edges { node { id round market selection stake status payout placedAt settledAt draw { id number table { id name } } } }
      pageInfo { hasNextPage endCursor }
    }
  }
`;

// A finished draw's number and table, for the verifier's heading.
export const DrawHeading = /* GraphQL */ `query DrawHeading($id: ID!) { draw(id: $id) { id number table { id name } } }`;

// The back office: tables and partners' API keys.
export const CreateTable = /* GraphQL */ `
  mutation CreateTable($input: TableInput!) { createTable(input: $input) { id name positions } }
`;
export const ApiKeys = /* GraphQL */ `query ApiKeys { apiKeys { id name requestsPerMinute createdAt revokedAt } }`;
export const CreateApiKey = /* GraphQL */ `
  mutation CreateApiKey($input: CreateApiKeyInput!) { createApiKey(input: $input) { key apiKey { id name requestsPerMinute createdAt revokedAt } } }
`;
export const RevokeApiKey = /* GraphQL */ `mutation RevokeApiKey($id: ID!) { revokeApiKey(id: $id) { id revokedAt } }`;
