// Russian, Kazakh and English. Every text the client shows comes from here,
// including each refusal reason the API can give (extensions.reason), so a
// player reads why a bet was refused in their language.
import { signal } from '@preact/signals';

export type Lang = 'ru' | 'kk' | 'en';
export const LANGS: { id: Lang; label: string }[] = [
  { id: 'ru', label: 'Русский' }, { id: 'kk', label: 'Қазақша' }, { id: 'en', label: 'English' },
];

function initial(): Lang {
  const saved = localStorage.getItem('pokertote.lang');
  if (saved === 'ru' || saved === 'kk' || saved === 'en') return saved;
  const nav = (navigator.language || 'ru').slice(0, 2);
  return nav === 'kk' ? 'kk' : nav === 'en' ? 'en' : 'ru';
}

export const lang = signal<Lang>(initial());
export function setLang(l: Lang) {
  lang.value = l;
  localStorage.setItem('pokertote.lang', l);
  document.documentElement.lang = l;
}

// [English, Russian, Kazakh]
const T: Record<string, [string, string, string]> = {
  appName: ['Pokertote', 'Покертото', 'Покертото'],
  skip: ['Skip to content', 'Перейти к содержимому', 'Мазмұнға өту'],
  lobby: ['Lobby', 'Лобби', 'Лобби'],
  holdem: ["Casino Hold'em", 'Казино Холдем', 'Казино Холдем'],
  account: ['Account', 'Кабинет', 'Жеке кабинет'],
  admin: ['Admin', 'Администратор', 'Әкімші'],
  verify: ['Verify', 'Проверка', 'Тексеру'],
  language: ['Language', 'Язык', 'Тіл'],
  balance: ['Balance', 'Баланс', 'Баланс'],
  signIn: ['Sign in', 'Войти', 'Кіру'],
  signOut: ['Sign out', 'Выйти', 'Шығу'],
  register: ['Register', 'Регистрация', 'Тіркелу'],
  email: ['Email', 'Эл. почта', 'Эл. пошта'],
  password: ['Password', 'Пароль', 'Құпиясөз'],
  name: ['Name', 'Имя', 'Аты'],
  dob: ['Date of birth', 'Дата рождения', 'Туған күні'],
  mustBe21: ['You must be 21 or older.', 'Вам должно быть не менее 21 года.', 'Жасыңыз кемінде 21 болуы керек.'],
  offline: ['Reconnecting…', 'Переподключение…', 'Қайта қосылу…'],
  tables: ['Tables', 'Столы', 'Үстелдер'],
  table: ['Table', 'Стол', 'Үстел'],
  draw: ['Draw', 'Тираж', 'Тираж'],
  phase: ['Phase', 'Фаза', 'Кезең'],
  closesIn: ['Closes in', 'До закрытия', 'Жабылуға дейін'],
  open: ['Open', 'Открыть', 'Ашу'],
  paused: ['Paused', 'Пауза', 'Үзіліс'],
  running: ['Running', 'Идёт', 'Жүріп жатыр'],
  jackpot: ['Jackpot', 'Джекпот', 'Джекпот'],
  position: ['Position', 'Позиция', 'Позиция'],
  equity: ['Equity', 'Шансы', 'Мүмкіндік'],
  board: ['Board', 'Борд', 'Борд'],
  burns: ['Burned', 'Сожжённые', 'Күйдірілген'],
  pools: ['Pools', 'Пулы', 'Пулдар'],
  gross: ['Gross', 'Сумма', 'Жалпы'],
  net: ['Net', 'Нетто', 'Таза'],
  bets: ['Bets', 'Ставки', 'Бәстер'],
  coef: ['Coef.', 'Коэф.', 'Коэф.'],
  result: ['Result', 'Результат', 'Нәтиже'],
  winners: ['Winners', 'Победители', 'Жеңімпаздар'],
  refunded: ['Refunded', 'Возврат', 'Қайтарылды'],
  betSlip: ['Bet slip', 'Купон', 'Купон'],
  market: ['Market', 'Рынок', 'Нарық'],
  selection: ['Selection', 'Выбор', 'Таңдау'],
  stake: ['Stake', 'Ставка', 'Бәс'],
  placeBet: ['Place bet', 'Сделать ставку', 'Бәс қою'],
  betAccepted: ['Bet accepted', 'Ставка принята', 'Бәс қабылданды'],
  noRound: ['Betting is closed now.', 'Приём ставок закрыт.', 'Бәс қабылдау жабық.'],
  suspended: ['suspended', 'приостановлено', 'тоқтатылды'],
  floored: ['raised to the guaranteed 1.10', 'поднят до гарантированных 1,10', 'кепілдік берілген 1,10-ға дейін көтерілді'],
  suspendedHint: ['This selection can hardly lose (90 % or more): it takes no bets in this round.', 'Этот исход почти не может проиграть (90 % и более): в этом раунде ставки на него не принимаются.', 'Бұл нұсқа ұтылмауға жақын (90 % не одан көп): бұл раундта оған бәс қабылданбайды.'],
  signInToBet: ['Sign in to bet.', 'Войдите, чтобы делать ставки.', 'Бәс қою үшін кіріңіз.'],
  myBets: ['My bets', 'Мои ставки', 'Менің бәстерім'],
  payout: ['Payout', 'Выплата', 'Төлем'],
  status: ['Status', 'Статус', 'Күйі'],
  flop: ['Flop', 'Флоп', 'Флоп'], turn: ['Turn', 'Тёрн', 'Тёрн'], river: ['River', 'Ривер', 'Ривер'],
  stakeInvalid: ['Enter an amount like 150 or 150.50.', 'Введите сумму, например 150 или 150.50.', 'Соманы енгізіңіз, мысалы 150 немесе 150.50.'],
  stakeBelowMin: ['The stake is below the minimum of {min}.', 'Ставка меньше минимальной ({min}).', 'Бәс ең азынан ({min}) кем.'],
  stakeAboveMax: ['The stake is above the maximum of {max}.', 'Ставка больше максимальной ({max}).', 'Бәс ең көбінен ({max}) асады.'],
  stakeAboveBalance: ['The stake is more than your balance.', 'Ставка больше вашего баланса.', 'Бәс балансыңыздан көп.'],
  pickSelection: ['Choose a selection.', 'Выберите исход.', 'Нәтижені таңдаңыз.'],
  express: ['Flop leader – turn leader – winner', 'Лидер флопа – лидер тёрна – победитель', 'Флоп көшбасшысы – тёрн көшбасшысы – жеңімпаз'],
  verification: ['Verification', 'Верификация', 'Верификация'],
  docType: ['Document type', 'Тип документа', 'Құжат түрі'],
  docNumber: ['Document number', 'Номер документа', 'Құжат нөмірі'],
  submit: ['Submit', 'Отправить', 'Жіберу'],
  ID_CARD: ['ID card', 'Удостоверение личности', 'Жеке куәлік'],
  PASSPORT: ['Passport', 'Паспорт', 'Паспорт'],
  DRIVERS_LICENSE: ["Driver's licence", 'Водительское удостоверение', 'Жүргізуші куәлігі'],
  NONE: ['Not submitted', 'Не подана', 'Жіберілмеген'],
  PENDING: ['Pending', 'На проверке', 'Тексерілуде'],
  APPROVED: ['Approved', 'Подтверждена', 'Расталды'],
  REJECTED: ['Rejected', 'Отклонена', 'Қабылданбады'],
  ledger: ['Ledger', 'Движение средств', 'Қаражат қозғалысы'],
  pendingVerifications: ['Pending verifications', 'Заявки на верификацию', 'Верификация өтінімдері'],
  approve: ['Approve', 'Одобрить', 'Мақұлдау'],
  reject: ['Reject', 'Отклонить', 'Қабылдамау'],
  cashier: ['Cashier', 'Касса', 'Касса'],
  userId: ['User id', 'ID пользователя', 'Пайдаланушы ID'],
  amount: ['Amount', 'Сумма', 'Сома'],
  deposit: ['Deposit', 'Пополнить', 'Толтыру'],
  withdraw: ['Withdraw', 'Вывести', 'Шығару'],
  minStake: ['Minimum stake', 'Мин. ставка', 'Ең аз бәс'],
  commission: ['Commission, %', 'Комиссия, %', 'Комиссия, %'],
  save: ['Save', 'Сохранить', 'Сақтау'],
  pause: ['Pause', 'Пауза', 'Үзіліс'],
  resume: ['Resume', 'Продолжить', 'Жалғастыру'],
  voidDraw: ['Void current draw', 'Аннулировать тираж', 'Тиражды жою'],
  reason: ['Reason', 'Причина', 'Себеп'],
  topUp: ['Top up', 'Пополнить', 'Толтыру'],
  enabled: ['Enabled', 'Включён', 'Қосулы'],
  done: ['Done', 'Готово', 'Дайын'],
  ante: ['Ante', 'Анте', 'Анте'],
  bonus: ['Bonus', 'Бонус', 'Бонус'],
  bet: ['Bet', 'Бет', 'Бет'],
  box: ['Box', 'Бокс', 'Бокс'],
  boxes: ['Boxes', 'Боксы', 'Бокстар'],
  cut: ['Your cut (any text)', 'Ваш сдвиг (любой текст)', 'Сіздің кесуіңіз (кез келген мәтін)'],
  commitment: ['Commitment', 'Обязательство', 'Міндеттеме'],
  getCommitment: ['Get commitment', 'Получить обязательство', 'Міндеттемені алу'],
  deal: ['Deal', 'Раздать', 'Тарату'],
  call: ['Call', 'Колл', 'Колл'],
  fold: ['Fold', 'Фолд', 'Фолд'],
  decideBy: ['Decide within', 'Решите за', 'Шешіңіз'],
  dealer: ['Dealer', 'Дилер', 'Дилер'],
  dealerQualifies: ['Dealer qualifies', 'Дилер в игре', 'Дилер ойында'],
  dealerNotQualified: ['Dealer does not qualify', 'Дилер не в игре', 'Дилер ойында емес'],
  returns: ['Returns', 'Возвраты', 'Қайтарымдар'],
  totalStake: ['Total stake', 'Всего поставлено', 'Барлық бәс'],
  totalReturn: ['Total return', 'Всего возвращено', 'Барлық қайтарым'],
  newHand: ['New hand', 'Новая раздача', 'Жаңа тарату'],
  serverSeed: ['Server seed', 'Серверный сид', 'Сервер сиді'],
  publicSeed: ['Public seed', 'Публичный сид', 'Жария сид'],
  verifyTitle: ['Verify a draw in your browser', 'Проверка тиража в браузере', 'Тиражды браузерде тексеру'],
  verifyHelp: ['Paste a draw id or its published result JSON. The shuffle and every pool are recomputed here, without asking the server to check.',
    'Вставьте номер тиража или его опубликованный результат (JSON). Тасовка и все пулы пересчитываются здесь, без проверки на сервере.',
    'Тираж ID-ін немесе жарияланған нәтижесін (JSON) қойыңыз. Араластыру мен барлық пулдар осында, серверсіз қайта есептеледі.'],
  drawId: ['Draw id', 'ID тиража', 'Тираж ID'],
  load: ['Load', 'Загрузить', 'Жүктеу'],
  resultJson: ['Result JSON', 'Результат (JSON)', 'Нәтиже (JSON)'],
  check: ['Check', 'Проверить', 'Тексеру'],
  verified: ['Verified', 'Подтверждено', 'Расталды'],
  notVerified: ['NOT verified', 'НЕ подтверждено', 'РАСТАЛМАДЫ'],
  recordedOk: ['The commitment, beacon rounds and bet roots this browser recorded while the draw ran', 'Обязательство, раунды маяка и корни ставок, записанные этим браузером во время тиража', 'Осы браузер тираж кезінде жазып алған міндеттеме, маяк раундтары мен бәс түбірлері'],
  proofOk: ['in the round\'s committed bets (proof checked here)', 'в зафиксированных ставках раунда (доказательство проверено здесь)', 'раундтың бекітілген бәстерінде (дәлел осында тексерілді)'],
  proofBad: ['NOT in the round\'s committed bets', 'НЕТ в зафиксированных ставках раунда', 'раундтың бекітілген бәстерінде ЖОҚ'],
  verifiedLocal: ['Checks out, but on the LOCAL beacon: proves nothing to a player', 'Сходится, но на ЛОКАЛЬНОМ маяке: игроку это ничего не доказывает', 'Сәйкес, бірақ ЖЕРГІЛІКТІ маякта: ойыншыға ештеңе дәлелдемейді'],
  commitmentOk: ['Commitment matches the server seed', 'Обязательство совпадает с сидом', 'Міндеттеме сидке сәйкес'],
  cardsOk: ['Cards match the shuffle', 'Карты совпадают с тасовкой', 'Карталар араластыруға сәйкес'],
  poolsOk: ['Pools and payouts recompute', 'Пулы и выплаты сходятся', 'Пулдар мен төлемдер сәйкес'],
  beaconsOk: ['Beacon rounds and signatures check out', 'Раунды маяка и подписи верны', 'Маяк раундтары мен қолтаңбалары дұрыс'],
  suspensionsOk: ['Suspended selections recompute from the cards, and none took a bet', 'Приостановленные исходы пересчитаны по картам, ставок на них нет', 'Тоқтатылған нұсқалар карталардан қайта есептелді, оларға бәс жоқ'],
  verifying: ['Checking… (every board of the deal is enumerated)', 'Проверка… (перебираются все доски раздачи)', 'Тексерілуде… (таратудың барлық тақталары саналады)'],
  localBeacon: ["Dealt on the server's own local beacon: the cards follow from the seeds, but a local beacon proves nothing to a player.",
    'Раздано на собственном локальном маяке сервера: карты следуют из сидов, но локальный маяк ничего не доказывает игроку.',
    'Сервердің жергілікті маягында таратылды: карталар сидтерден шығады, бірақ жергілікті маяк ойыншыға ештеңе дәлелдемейді.'],
  leavesChecked: ['Every bet of the draw was downloaded: each round\'s root and every pool and payout recompute from the bets themselves.',
    'Скачаны все ставки розыгрыша: корень каждого раунда, все пулы и выплаты пересчитаны по самим ставкам.',
    'Ойынның барлық бәсі жүктелді: әр раундтың түбірі, барлық пулдар мен төлемдер бәстердің өзінен қайта есептелді.'],
  beaconDelay: ['Waiting for the public randomness (drand round {round}): the next cards are dealt as soon as it arrives; no new draw starts meanwhile. If it has not come by {deadline}, every stake is refunded.',
    'Ждём публичную случайность (раунд drand {round}): следующие карты раздадим, как только она придёт; новый розыгрыш пока не начнётся. Если её не будет до {deadline}, все ставки вернём.',
    'Жария кездейсоқтықты күтудеміз (drand раунды {round}): ол келген бойда келесі карталар таратылады; осы уақытта жаңа ойын басталмайды. Егер ол {deadline} дейін келмесе, барлық бәс қайтарылады.'],
  beaconWithheld: ['drand published the beacon round this void says was missing: it was withheld, not missing.',
    'drand опубликовал раунд маяка, которого, по словам аннулирования, не было: его утаили, он не пропал.',
    'drand жойылу жоқ деген маяк раундын жариялаған: ол жоғалмаған, жасырылған.'],
  drandUnreachable: ["drand's relays could not be reached: the missing beacon was not checked against drand's record.",
    'Ретрансляторы drand недоступны: пропавший маяк не сверен с записью drand.',
    'drand ретрансляторларына қосылу мүмкін болмады: жоқ маяк drand жазбасымен салыстырылмады.'],
  problems: ['Problems', 'Расхождения', 'Сәйкессіздіктер'],
  WIN: ['Winner', 'Победитель', 'Жеңімпаз'],
  COMBINATION: ['Combination', 'Комбинация', 'Комбинация'],
  EXPRESS: ['Express', 'Экспресс', 'Экспресс'],
  PRE_DEAL: ['Before the deal', 'До раздачи', 'Таратуға дейін'],
  DEALING_POCKET: ['Dealing pockets', 'Раздача карманных', 'Қалта карталарын тарату'],
  POCKET: ['Pockets', 'Карманные', 'Қалта карталары'],
  DEALING_FLOP: ['Dealing the flop', 'Раздача флопа', 'Флоп таратылуда'],
  FLOP: ['Flop', 'Флоп', 'Флоп'],
  DEALING_TURN: ['Dealing the turn', 'Раздача тёрна', 'Тёрн таратылуда'],
  TURN: ['Turn', 'Тёрн', 'Тёрн'],
  DEALING_RIVER: ['Dealing the river', 'Раздача ривера', 'Ривер таратылуда'],
  SETTLED: ['Settled', 'Рассчитан', 'Есептелді'],
  VOID: ['Void', 'Аннулирован', 'Жойылды'],
  ACCEPTED: ['Accepted', 'Принята', 'Қабылданды'],
  WON: ['Won', 'Выиграла', 'Ұтты'],
  LOST: ['Lost', 'Проиграла', 'Ұтылды'],
  REFUNDED: ['Refunded', 'Возвращена', 'Қайтарылды'],
  LOSS: ['Lost', 'Проиграла', 'Ұтылды'],
  HIGH_CARD: ['High card', 'Старшая карта', 'Жоғары карта'],
  PAIR: ['Pair', 'Пара', 'Жұп'],
  TWO_PAIR: ['Two pair', 'Две пары', 'Екі жұп'],
  THREE_OF_A_KIND: ['Three of a kind', 'Сет', 'Үштік'],
  STRAIGHT: ['Straight', 'Стрит', 'Стрит'],
  FLUSH: ['Flush', 'Флеш', 'Флеш'],
  FULL_HOUSE: ['Full house', 'Фулл-хаус', 'Фулл-хаус'],
  FOUR_OF_A_KIND: ['Four of a kind', 'Каре', 'Төрттік'],
  STRAIGHT_FLUSH: ['Straight flush', 'Стрит-флеш', 'Стрит-флеш'],
  ROYAL_FLUSH: ['Royal flush', 'Роял-флеш', 'Роял-флеш'],
  DEALER_NOT_QUALIFIED: ['Dealer not qualified', 'Дилер не в игре', 'Дилер ойында емес'],
  LOSE: ['Lose', 'Проигрыш', 'Ұтылыс'],
  STAY: ['Stay', 'Ничья', 'Тең'],
  CALL: ['Call', 'Колл', 'Колл'],
  FOLD: ['Fold', 'Фолд', 'Фолд'],
  DECIDING: ['Deciding', 'Решение', 'Шешім'],
  // the interface (issue 28)
  hiddenCard: ['hidden card', 'закрытая карта', 'жабық карта'],
  cardName: ['{rank} of {suit}', '{rank} {suit}', '{rank} {suit}'],
  hearts: ['hearts', 'черви', 'шыңғыл'], diamonds: ['diamonds', 'бубны', 'қиық'], clubs: ['clubs', 'трефы', 'шыбын'], spades: ['spades', 'пики', 'қарға'],
  sec: ['s', 'с', 'с'],
  seconds: ['{n} seconds', '{n} с', '{n} секунд'],
  dismiss: ['Dismiss', 'Закрыть', 'Жабу'],
  online: ['Connected', 'Подключено', 'Қосылған'],
  positionsCount: ['{n} positions', 'Позиций: {n}', 'Позиция саны: {n}'],
  potential: ['Potential payout', 'Возможная выплата', 'Ықтимал төлем'],
  coefNow: ['Coefficient now', 'Коэффициент сейчас', 'Қазіргі коэффициент'],
  coefNone: ['no stakes yet', 'ставок ещё нет', 'әзірге бәс жоқ'],
  openSlip: ['Open bet slip', 'Открыть купон', 'Купонды ашу'],
  closeSlip: ['Close bet slip', 'Закрыть купон', 'Купонды жабу'],
  pickRow: ['Bet on {sel}', 'Ставка на {sel}', '{sel} бәс қою'],
  verifyToBet: ['To bet, verify your identity first.', 'Чтобы делать ставки, пройдите верификацию.', 'Бәс қою үшін алдымен верификациядан өтіңіз.'],
  pendingToBet: ['Your documents are being checked: betting opens when they are approved.', 'Документы на проверке: ставки откроются после подтверждения.', 'Құжаттар тексерілуде: бәс расталғаннан кейін ашылады.'],
  goVerify: ['Go to verification', 'Перейти к верификации', 'Верификацияға өту'],
  noBetsYet: ['No bets yet.', 'Ставок пока нет.', 'Әзірге бәс жоқ.'],
  loading: ['Loading…', 'Загрузка…', 'Жүктелуде…'],
  noCoupons: ['No coupons yet.', 'Купонов пока нет.', 'Әзірге купон жоқ.'],
  expressNotHere: ['Express is taken before the flop only.', 'Экспресс принимается только до флопа.', 'Экспресс тек флопқа дейін қабылданады.'],
  noStakesDraw: ['No bets were placed in this draw.', 'В этом тираже ставок не было.', 'Бұл тиражда бәс болған жоқ.'],
  voided: ['Draw voided: {reason}', 'Тираж аннулирован: {reason}', 'Тираж жойылды: {reason}'],
  expressCat1: ['3 of 3', '3 из 3', '3-тен 3'],
  expressCat2: ['2 of 3', '2 из 3', '3-тен 2'],
  resultOf: ['Result of draw #{n}', 'Результат тиража #{n}', '#{n} тираж нәтижесі'],
  close: ['Close', 'Закрыть', 'Жабу'],
  PLAYER: ['Player', 'Игрок', 'Ойыншы'],
  ADMIN: ['Administrator', 'Администратор', 'Әкімші'],
  date: ['Date', 'Дата', 'Күні'],
  kind: ['Operation', 'Операция', 'Операция'],
  memo: ['Note', 'Примечание', 'Ескертпе'],
  more: ['Show more', 'Показать ещё', 'Тағы көрсету'],
  noEntries: ['No entries yet.', 'Записей пока нет.', 'Әзірге жазба жоқ.'],
  DEPOSIT: ['Deposit', 'Пополнение', 'Толтыру'],
  WITHDRAWAL: ['Withdrawal', 'Вывод', 'Шығару'],
  BET_STAKE: ['Bet', 'Ставка', 'Бәс'],
  // PAYOUT of a bet or a hand (the bet's status is its own key, WON)
  PAYOUT: ['Payout', 'Выплата', 'Төлем'],
  REFUND: ['Refund', 'Возврат', 'Қайтарым'],
  COMMISSION: ['Commission', 'Комиссия', 'Комиссия'],
  BREAKAGE: ['Breakage', 'Округление', 'Дөңгелектеу'],
  JACKPOT: ['Jackpot', 'Джекпот', 'Джекпот'],
  JACKPOT_TOPUP: ['Jackpot top-up', 'Пополнение джекпота', 'Джекпотты толтыру'],
  JACKPOT_ROLLOVER: ['Jackpot rollover', 'Перенос в джекпот', 'Джекпотқа көшіру'],
  TOPUP: ['Pool top-up', 'Доплата пула', 'Пулды толтыру'],
  SETTLEMENT: ['Settlement', 'Расчёт', 'Есеп айырысу'],
  HOLDEM_STAKE: ["Hold'em stake", 'Ставка в Холдеме', 'Холдемдегі бәс'],
  HOLDEM_PAYOUT: ["Hold'em payout", 'Выплата в Холдеме', 'Холдемдегі төлем'],
  confirmVoid: ['Void draw #{n}? Every bet of it is refunded. This cannot be undone.', 'Аннулировать тираж #{n}? Все ставки будут возвращены. Это нельзя отменить.', '#{n} тиражды жою керек пе? Барлық бәс қайтарылады. Мұны болдырмау мүмкін емес.'],
  confirmPause: ['Pause {name}? The current draw finishes, no new draw starts.', 'Поставить {name} на паузу? Текущий тираж завершится, новый не начнётся.', '{name} үзіліске қою керек пе? Ағымдағы тираж аяқталады, жаңасы басталмайды.'],
  confirm: ['Confirm', 'Подтвердить', 'Растау'],
  cancel: ['Cancel', 'Отмена', 'Болдырмау'],
  userEmail: ['Player email', 'Почта игрока', 'Ойыншы поштасы'],
  find: ['Find', 'Найти', 'Табу'],
  accountEnabled: ['The account is enabled.', 'Аккаунт включён.', 'Аккаунт қосулы.'],
  accountDisabled: ['Account disabled {at}', 'Аккаунт отключён {at}', 'Аккаунт өшірілген {at}'],
  disableReason: ['Reason for disabling', 'Причина отключения', 'Өшіру себебі'],
  disableAccount: ['Disable account', 'Отключить аккаунт', 'Аккаунтты өшіру'],
  disableAccountQ: ['Disable {email}? Every session of the player ends at once; their money stays.', 'Отключить {email}? Все сеансы игрока завершатся сразу; деньги останутся на счёте.', '{email} өшірілсін бе? Ойыншының барлық сеанстары бірден аяқталады; ақшасы шотта қалады.'],
  accountDisabledDone: ['{email} is disabled.', '{email} отключён.', '{email} өшірілді.'],
  enableAccount: ['Enable account', 'Включить аккаунт', 'Аккаунтты қосу'],
  enableAccountQ: ['Enable {email} again? The player signs in anew.', 'Снова включить {email}? Игрок войдёт заново.', '{email} қайта қосылсын ба? Ойыншы қайта кіреді.'],
  accountEnabledDone: ['{email} is enabled.', '{email} включён.', '{email} қосылды.'],
  cashDone: ['{kind} {amount} for {email}: balance now {balance}.', '{kind} {amount} для {email}: баланс теперь {balance}.', '{email} үшін {kind} {amount}: қазіргі баланс {balance}.'],
  auditLog: ['Audit log', 'Журнал аудита', 'Аудит журналы'],
  action: ['Action', 'Действие', 'Әрекет'],
  actor: ['Who', 'Кто', 'Кім'],
  target: ['Object', 'Объект', 'Нысан'],
  details: ['Details', 'Подробности', 'Толығырақ'],
  filterAction: ['Action contains', 'Действие содержит', 'Әрекетте бар'],
  filterActor: ['Who (email)', 'Кто (почта)', 'Кім (пошта)'],
  any: ['Any', 'Любое', 'Кез келген'],
  fromTime: ['From (Almaty time)', 'С (время Алматы)', 'Бастап (Алматы уақыты)'],
  toTime: ['Until (Almaty time)', 'До (время Алматы)', 'Дейін (Алматы уақыты)'],
  applyFilters: ['Show', 'Показать', 'Көрсету'],
  noSuchUser: ['No user has this email.', 'Пользователя с такой почтой нет.', 'Мұндай поштасы бар пайдаланушы жоқ.'],
  badTime: ['Enter a date and time.', 'Введите дату и время.', 'Күн мен уақытты енгізіңіз.'],
  'audit.VERIFICATION_APPROVED': ['Verification approved', 'Верификация одобрена', 'Верификация мақұлданды'],
  'audit.VERIFICATION_REJECTED': ['Verification rejected', 'Верификация отклонена', 'Верификация қабылданбады'],
  'audit.ROLE_CHANGED': ['Role changed', 'Роль изменена', 'Рөл өзгертілді'],
  'audit.ACCOUNT_DISABLED': ['Account disabled', 'Аккаунт отключён', 'Аккаунт өшірілді'],
  'audit.ACCOUNT_ENABLED': ['Account enabled', 'Аккаунт включён', 'Аккаунт қосылды'],
  'audit.DEPOSIT': ['Deposit at the desk', 'Пополнение в кассе', 'Кассада толтыру'],
  'audit.WITHDRAWAL': ['Withdrawal at the desk', 'Вывод в кассе', 'Кассада шығару'],
  'audit.TOTE_TABLE_CREATED': ['Table created', 'Стол создан', 'Үстел құрылды'],
  'audit.TOTE_TABLE_UPDATED': ['Table settings changed', 'Настройки стола изменены', 'Үстел баптаулары өзгертілді'],
  'audit.TOTE_TABLE_PAUSED': ['Table paused', 'Стол на паузе', 'Үстел үзіліске қойылды'],
  'audit.TOTE_TABLE_RESUMED': ['Table resumed', 'Стол возобновлён', 'Үстел жалғастырылды'],
  'audit.TOTE_DRAW_VOIDED': ['Draw voided', 'Тираж аннулирован', 'Тираж жойылды'],
  'audit.TOTE_JACKPOT_TOPUP': ['Jackpot topped up', 'Джекпот пополнен', 'Джекпот толтырылды'],
  'audit.TOTE_JACKPOT_ENABLED': ['Jackpot switched', 'Джекпот переключён', 'Джекпот ауыстырылды'],
  'audit.EXCLUSION_REGISTER_ADDED': ['Added to the exclusion register', 'Добавлен в реестр самоисключения', 'Өзін-өзі шектеу тізіліміне қосылды'],
  'audit.EXCLUSION_REGISTER_REMOVED': ['Removed from the exclusion register', 'Удалён из реестра самоисключения', 'Өзін-өзі шектеу тізілімінен алынды'],
  'audit.API_KEY_CREATED': ['API key created', 'API-ключ создан', 'API кілті құрылды'],
  'audit.API_KEY_REVOKED': ['API key revoked', 'API-ключ отозван', 'API кілті қайтарылды'],
  'audit.WEBHOOK_CREATED': ['Webhook endpoint registered', 'Адрес вебхука зарегистрирован', 'Вебхук мекенжайы тіркелді'],
  'audit.WEBHOOK_DELETED': ['Webhook endpoint removed', 'Адрес вебхука удалён', 'Вебхук мекенжайы жойылды'],
  'audit.WEBHOOK_REPLAYED': ['Webhook deliveries replayed', 'Доставка вебхуков повторена', 'Вебхук жеткізу қайталанды'],
  'audit.BETTING_STOPPED': ['All betting stopped', 'Все ставки остановлены', 'Барлық бәстер тоқтатылды'],
  'audit.BETTING_RESUMED': ['Betting resumed', 'Ставки возобновлены', 'Бәстер жалғасты'],
  'audit.TRUSTED_DOCUMENTS_REGISTERED': ['Client documents registered', 'Документы клиента зарегистрированы', 'Клиент құжаттары тіркелді'],
  'audit.TRUSTED_DOCUMENTS_REVOKED': ['Client documents revoked', 'Документы клиента отозваны', 'Клиент құжаттары кері қайтарылды'],
  'audit.REPORT_EXPORTED': ['Report downloaded', 'Отчёт скачан', 'Есеп жүктелді'],
  role: ['Role', 'Роль', 'Рөл'],
  // refusal reasons (extensions.reason)
  'err.INSUFFICIENT_FUNDS': ['Not enough money on your balance.', 'Недостаточно средств на балансе.', 'Балансыңызда қаражат жеткіліксіз.'],
  'err.STAKE_TOO_LOW': ['The stake is below the table minimum.', 'Ставка меньше минимальной на столе.', 'Бәс үстелдің ең азынан кем.'],
  'err.STAKE_TOO_HIGH': ['The stake is above the table maximum.', 'Ставка больше максимальной на столе.', 'Бәс үстелдің ең көбінен асады.'],
  'err.ROUND_CLOSED': ['This betting round has closed.', 'Этот раунд ставок уже закрыт.', 'Бұл бәс раунды жабылды.'],
  'err.SELECTION_SUSPENDED': ['This selection is suspended for this round: it can hardly lose.', 'Этот исход приостановлен на этот раунд: он почти не может проиграть.', 'Бұл нұсқа осы раундқа тоқтатылды: ол ұтылмауға жақын.'],
  'err.MARKET_NOT_OFFERED_IN_ROUND': ['This market is not offered in this round.', 'Этот рынок не принимается в этом раунде.', 'Бұл нарық осы раундта жоқ.'],
  'err.NOT_VERIFIED': ['Your identity is not verified yet.', 'Ваша личность ещё не подтверждена.', 'Жеке басыңыз әлі расталмаған.'],
  'err.VERIFICATION_PENDING': ['Your verification is still pending.', 'Ваша верификация ещё на проверке.', 'Верификацияңыз әлі тексерілуде.'],
  'err.UNDER_AGE': ['Players must be 21 or older.', 'Игрокам должно быть не менее 21 года.', 'Ойыншылар кемінде 21 жаста болуы керек.'],
  'err.INVALID_SELECTION': ['That selection does not exist.', 'Такого исхода нет.', 'Мұндай нәтиже жоқ.'],
  'err.POSITION_OUT_OF_RANGE': ['No such position at this table.', 'На столе нет такой позиции.', 'Үстелде мұндай позиция жоқ.'],
  'err.DRAW_FINISHED': ['This draw is over.', 'Этот тираж завершён.', 'Бұл тираж аяқталды.'],
  'err.IDEMPOTENCY_KEY_REUSED': ['This slip was already sent with other details.', 'Этот купон уже отправлен с другими данными.', 'Бұл купон басқа деректермен жіберілген.'],
  'err.INVALID_AMOUNT': ['Enter an amount like 150 or 150.50.', 'Введите сумму, например 150 или 150.50.', 'Соманы енгізіңіз, мысалы 150 немесе 150.50.'],
  'err.INVALID_STAKE': ['The stake is not valid.', 'Недопустимая ставка.', 'Бәс жарамсыз.'],
  'err.INVALID_CREDENTIALS': ['Wrong email or password.', 'Неверная почта или пароль.', 'Пошта немесе құпиясөз қате.'],
  'err.EMAIL_TAKEN': ['This email is already registered.', 'Эта почта уже зарегистрирована.', 'Бұл пошта тіркелген.'],
  'err.INVALID_EMAIL': ['Enter a valid email.', 'Введите корректную почту.', 'Дұрыс поштаны енгізіңіз.'],
  'err.INVALID_PASSWORD': ['The password is too short or too weak.', 'Пароль слишком короткий или простой.', 'Құпиясөз тым қысқа немесе әлсіз.'],
  'err.DOB_MISMATCH': ["The document's date of birth differs from the account's.", 'Дата рождения в документе не совпадает.', 'Құжаттағы туған күн сәйкес емес.'],
  'err.ACCOUNT_DISABLED': ['This account has been disabled. Contact support.', 'Этот аккаунт отключён. Обратитесь в службу поддержки.', 'Бұл аккаунт өшірілген. Қолдау қызметіне хабарласыңыз.'],
  'err.ALREADY_DISABLED': ['The account is already disabled.', 'Аккаунт уже отключён.', 'Аккаунт әлдеқашан өшірілген.'],
  'err.ALREADY_VERIFIED': ['Already verified.', 'Уже подтверждено.', 'Расталған.'],
  'err.ANTE_OUT_OF_RANGE': ['The ante is outside the limits.', 'Анте вне допустимых пределов.', 'Анте шектен тыс.'],
  'err.BONUS_OUT_OF_RANGE': ['The bonus is outside the limits.', 'Бонус вне допустимых пределов.', 'Бонус шектен тыс.'],
  'err.OUT_OF_TURN': ['Box 1 decides first.', 'Сначала решает бокс 1.', 'Алдымен 1-бокс шешеді.'],
  'err.DECISION_TIMED_OUT': ['The decision time ran out.', 'Время на решение истекло.', 'Шешім уақыты бітті.'],
  'err.HAND_SETTLED': ['This hand is already settled.', 'Раздача уже рассчитана.', 'Тарату есептелген.'],
  'err.ALREADY_DECIDED': ['This box has already decided.', 'Этот бокс уже принял решение.', 'Бұл бокс шешім қабылдаған.'],
  'err.INVALID_DATE_OF_BIRTH': ['Enter a valid date of birth.', 'Введите корректную дату рождения.', 'Дұрыс туған күнді енгізіңіз.'],
  'err.INVALID_DATE': ['Enter a valid date.', 'Введите корректную дату.', 'Дұрыс күнді енгізіңіз.'],
  'err.INVALID_DOCUMENT_NUMBER': ['Enter the document number as printed.', 'Введите номер документа как в документе.', 'Құжат нөмірін құжаттағыдай енгізіңіз.'],
  'err.INVALID_DOCUMENT_TYPE': ['Choose a document type.', 'Выберите тип документа.', 'Құжат түрін таңдаңыз.'],
  'err.INVALID_NAME': ['Enter your name.', 'Введите имя.', 'Атыңызды енгізіңіз.'],
  'err.NOT_A_PLAYER': ['Only players can do this.', 'Это доступно только игрокам.', 'Бұл тек ойыншыларға қолжетімді.'],
  'err.NOT_DISABLED': ['The account is not disabled.', 'Аккаунт не отключён.', 'Аккаунт өшірілмеген.'],
  'err.NOT_PENDING': ['This verification was already decided.', 'По этой заявке уже принято решение.', 'Бұл өтінім бойынша шешім қабылданған.'],
  'err.CUT_REQUIRED': ['Give a cut (any text); a random one is drawn for you.', 'Укажите сдвиг (любой текст); случайный выбирается за вас.', 'Кесуді көрсетіңіз (кез келген мәтін); кездейсоқ кесу сіз үшін таңдалады.'],
  'err.INVALID_CUT': ['The cut is too long (at most 256 bytes).', 'Сдвиг слишком длинный (не более 256 байт).', 'Кесу тым ұзын (256 байттан аспауы керек).'],
  'err.UNKNOWN_COMMITMENT': ['That commitment is unknown or used: get a new one.', 'Обязательство неизвестно или использовано: получите новое.', 'Міндеттеме белгісіз немесе қолданылған: жаңасын алыңыз.'],
  'err.COMMITMENT_REQUIRED': ['Get the commitment before dealing.', 'Сначала получите обязательство.', 'Алдымен міндеттемені алыңыз.'],
  'err.BOX_COUNT': ['Play one or two boxes.', 'Играйте одним или двумя боксами.', 'Бір немесе екі бокспен ойнаңыз.'],
  'err.HAND_NOT_FOUND': ['No such hand.', 'Раздача не найдена.', 'Тарату табылмады.'],
  'err.UNKNOWN_MARKET': ['No such market.', 'Такого рынка нет.', 'Мұндай нарық жоқ.'],
  'err.INVALID_IDEMPOTENCY_KEY': ['The slip is damaged: start a new one.', 'Купон повреждён: начните новый.', 'Купон бүлінген: жаңасын бастаңыз.'],
  'err.COMMIT_UNKNOWN': ['The server could not confirm the outcome: check My bets before retrying.', 'Сервер не подтвердил результат: проверьте «Мои ставки» перед повтором.', 'Сервер нәтижені растамады: қайталамас бұрын «Менің бәстерімді» тексеріңіз.'],
  'err.UNAUTHENTICATED': ['Please sign in.', 'Пожалуйста, войдите.', 'Кіріңіз.'],
  'err.FORBIDDEN': ['You may not do this.', 'Недостаточно прав.', 'Рұқсат жоқ.'],
  'err.NETWORK': ['The server cannot be reached.', 'Сервер недоступен.', 'Сервер қолжетімсіз.'],

  // refusal reasons added with issue 28 (every reason of the server's catalogues: domain/*/reasons.go, graph/reasons.go)
  'err.ALREADY_EXCLUDED': ['You are already excluded for this period.', 'Вы уже исключены на этот срок.', 'Сіз бұл мерзімге шектелгенсіз.'],
  'err.ALREADY_EXISTS': ['This already exists.', 'Такая запись уже есть.', 'Мұндай жазба бар.'],
  'err.ALREADY_REMOVED': ['This entry was already removed.', 'Эта запись уже удалена.', 'Бұл жазба жойылған.'],
  'err.API_KEY_REVOKED': ['This API key was revoked.', 'Этот API-ключ отозван.', 'Бұл API кілті кері қайтарылды.'],
  'err.API_KEY_SCOPE': ['An API key may only read public data.', 'API-ключ может только читать открытые данные.', 'API кілті тек ашық деректерді оқи алады.'],
  'err.COMMISSION_TOO_LOW': ['The commission is below the allowed minimum.', 'Комиссия ниже допустимой.', 'Комиссия рұқсат етілгеннен төмен.'],
  'err.DEPOSIT_LIMIT': ['This deposit would exceed your deposit limit.', 'Пополнение превысит ваш лимит пополнений.', 'Толтыру шегіңізден асады.'],
  'err.STAKE_LIMIT': ['This stake would exceed your stake limit.', 'Ставка превысит ваш лимит ставок.', 'Бәс шегіңізден асады.'],
  'err.LOSS_LIMIT': ['This stake would exceed your loss limit.', 'Ставка превысит ваш лимит проигрыша.', 'Бәс ұтылыс шегіңізден асады.'],
  'err.DRAW_NOT_FINISHED': ['The draw is not finished yet.', 'Тираж ещё не завершён.', 'Тираж әлі аяқталмады.'],
  'err.DUPLICATE_BET': ['This bet was already placed.', 'Эта ставка уже сделана.', 'Бұл бәс қойылған.'],
  'err.EMAIL_LOOKALIKE': ['This email looks like one already registered.', 'Эта почта похожа на уже зарегистрированную.', 'Бұл пошта тіркелгенге ұқсас.'],
  'err.EXCLUDED': ['Play is closed for this person (exclusion register).', 'Игра для этого лица закрыта (реестр исключений).', 'Бұл тұлғаға ойын жабық (шектеу тізілімі).'],
  'err.SELF_EXCLUDED': ['You have excluded yourself from play for now.', 'Вы сами ограничили себе игру на этот срок.', 'Сіз өзіңізге ойынды шектедіңіз.'],
  'err.TIMED_OUT': ['You are taking a time-out.', 'У вас перерыв в игре.', 'Сізде ойын үзілісі.'],
  'err.INVALID_EXCLUSION': ['Choose a valid exclusion period.', 'Выберите допустимый срок ограничения.', 'Шектеудің дұрыс мерзімін таңдаңыз.'],
  'err.INVALID_LIMIT': ['Enter a valid limit.', 'Введите корректный лимит.', 'Дұрыс шекті енгізіңіз.'],
  'err.INVALID_REASON': ['Enter a reason.', 'Укажите причину.', 'Себебін көрсетіңіз.'],
  'err.INVALID_ROLE': ['No such role.', 'Такой роли нет.', 'Мұндай рөл жоқ.'],
  'err.INVALID_STAKE_LIMITS': ['The minimum stake must not exceed the maximum.', 'Минимальная ставка не может быть больше максимальной.', 'Ең аз бәс ең көбінен аспауы керек.'],
  'err.MIN_STAKE_TOO_LOW': ['The minimum stake is too low.', 'Минимальная ставка слишком мала.', 'Ең аз бәс тым төмен.'],
  'err.INVALID_TABLE_NAME': ['Enter a table name.', 'Введите название стола.', 'Үстел атауын енгізіңіз.'],
  'err.INVALID_TABLE_SIZE': ['A table has 2 to 10 positions.', 'На столе от 2 до 10 позиций.', 'Үстелде 2-ден 10-ға дейін позиция.'],
  'err.INVALID_TABLE_STATUS': ['The table is not in a state that allows this.', 'Состояние стола этого не позволяет.', 'Үстел күйі бұған мүмкіндік бермейді.'],
  'err.INVALID_TIMING': ['Enter valid round times.', 'Введите корректное время раундов.', 'Раунд уақытын дұрыс енгізіңіз.'],
  'err.BETTING_STOPPED': ['Betting is stopped by the operator for now.', 'Приём ставок временно остановлен оператором.', 'Бәс қабылдауды оператор уақытша тоқтатты.'],
  'err.BETTING_STATE_UNKNOWN': ['Betting is paused for a moment. Try again.', 'Приём ставок на мгновение приостановлен. Попробуйте ещё раз.', 'Бәс қабылдау бір сәтке тоқтатылды. Қайталап көріңіз.'],
  'err.INVALID_MANIFEST': ['The manifest is refused: rebuild it from the client that sends these documents.', 'Манифест отклонён: соберите его заново из клиента, который отправляет эти документы.', 'Манифест қабылданбады: оны осы құжаттарды жіберетін клиенттен қайта жинаңыз.'],
  'err.INVALID_CLIENT_NAME': ['A client and a version are 1 to 64 letters, digits and . _ + -.', 'Клиент и версия: от 1 до 64 букв, цифр и знаков . _ + -.', 'Клиент пен нұсқа: 1-ден 64-ке дейін әріп, сан және . _ + - таңбалары.'],
  'err.INVALID_STOP_REASON': ['Give a reason for the stop (1 to 500 characters).', 'Укажите причину остановки (от 1 до 500 символов).', 'Тоқтату себебін көрсетіңіз (1-ден 500 таңбаға дейін).'],
  'err.DOCUMENT_HASH_MISMATCH': ['This version of the app sent a request the server cannot match: please reload the page or update the app.', 'Эта версия приложения отправила запрос, который сервер не может сопоставить: обновите страницу или приложение.', 'Қолданбаның бұл нұсқасы сервер сәйкестендіре алмайтын сұраныс жіберді: бетті немесе қолданбаны жаңартыңыз.'],
  'err.ORIGIN_NOT_ALLOWED': ['This page may not connect to the server from its address.', 'Эта страница не может подключаться к серверу со своего адреса.', 'Бұл бет өз мекенжайынан серверге қосыла алмайды.'],
  'err.WEAK_CUT': ['The cut is too simple: use at least 4 characters, 3 of them different.', 'Срез слишком простой: не менее 4 символов, из них 3 разных.', 'Кесу тым қарапайым: кемінде 4 таңба, оның 3-еуі әртүрлі болсын.'],
  'err.INVALID_WEBHOOK_URL': ['Enter an https:// address of the partner\'s receiver.', 'Введите адрес приёмника партнёра, начинающийся с https://.', 'Серіктес қабылдағышының https:// деп басталатын мекенжайын енгізіңіз.'],
  'err.INVALID_WEBHOOK_TYPES': ['Choose at least one event type.', 'Выберите хотя бы один тип событий.', 'Кемінде бір оқиға түрін таңдаңыз.'],
  'err.INVALID_DATE_RANGE': ['The dates do not make a range: from must come before to, at most 366 days apart.', 'Даты не образуют период: «с» должна быть раньше «по», не более 366 дней.', 'Күндер кезең құрмайды: «бастап» «дейін» күнінен бұрын болуы керек, 366 күннен аспауы тиіс.'],
  'err.INVALID_SEARCH': ['Type at least 2 characters of an email, a name or a document.', 'Введите хотя бы 2 символа почты, имени или документа.', 'Поштаның, атының немесе құжаттың кемінде 2 таңбасын енгізіңіз.'],
  'err.UNKNOWN_TABLE': ['There is no such table.', 'Такого стола нет.', 'Мұндай үстел жоқ.'],
  'err.INVALID_WEBHOOK_EVENT_ID': ['An event id reads evt_<table>_<number>, as in the webhook-id header.', 'Идентификатор события имеет вид evt_<стол>_<номер>, как в заголовке webhook-id.', 'Оқиға идентификаторы webhook-id тақырыбындағыдай evt_<үстел>_<нөмір> түрінде болады.'],
  'err.INVALID_DESCRIPTION': ['The description is too long (at most 200 characters).', 'Описание слишком длинное (не более 200 символов).', 'Сипаттама тым ұзын (200 таңбадан аспауы керек).'],
  'err.WEBHOOK_NOT_FOUND': ['This webhook endpoint no longer exists.', 'Этот адрес вебхука больше не существует.', 'Бұл вебхук мекенжайы енді жоқ.'],
  'err.INVALID_RATE': ['Enter a valid rate.', 'Введите корректный лимит запросов.', 'Сұраныс шегін дұрыс енгізіңіз.'],
  'err.INVALID_JACKPOT': ['The jackpot amount is not valid.', 'Недопустимая сумма джекпота.', 'Джекпот сомасы жарамсыз.'],
  'err.INVALID_TOKEN': ['Your session has ended: sign in again.', 'Сеанс завершён: войдите снова.', 'Сеанс аяқталды: қайта кіріңіз.'],
  'err.TOKEN_EXPIRED': ['Your session has expired: sign in again.', 'Сеанс истёк: войдите снова.', 'Сеанс мерзімі бітті: қайта кіріңіз.'],
  'err.RIGHTS_CHANGED': ['Your account rights have changed: the page shows what you may do now.', 'Права вашей учётной записи изменились: страница показывает, что вам доступно сейчас.', 'Тіркелгіңіздің құқықтары өзгерді: бетте қазір не істей алатыныңыз көрсетілген.'],
  'err.DRAINING': ['The server is restarting: reconnecting, try again in a moment.', 'Сервер перезапускается: переподключаемся, повторите через мгновение.', 'Сервер қайта іске қосылуда: қайта қосыламыз, сәлден кейін қайталаңыз.'],
  'err.INVALID_VARIABLE': ['The request had a wrong value: please reload the page.', 'В запросе неверное значение: обновите страницу.', 'Сұраныста қате мән бар: бетті жаңартыңыз.'],
  'err.PAGE_DIRECTION_CONFLICT': ['The list was asked for in both directions at once: please reload the page.', 'Список запрошен сразу в обе стороны: обновите страницу.', 'Тізім бір мезгілде екі бағытта сұралды: бетті жаңартыңыз.'],
  'err.VOID_AFTER_DEAL': ['A draw can be voided only before betting round 1 closes; this one will finish.', 'Тираж можно аннулировать только до закрытия первого раунда ставок; этот тираж будет доигран.', 'Тиражды тек бірінші бәс раунды жабылғанға дейін жоюға болады; бұл тираж аяқталады.'],
  'err.INVALID_SUSPEND_AT': ['The suspension threshold must be between 50 % and 90 %.', 'Порог приостановки должен быть от 50 % до 90 %.', 'Тоқтату шегі 50 % мен 90 % аралығында болуы керек.'],
  'err.DATABASE_UNAVAILABLE': ['The service cannot reach its database right now; nothing was changed. Try again shortly.', 'Сервис сейчас не может связаться с базой данных; ничего не изменилось. Повторите попытку чуть позже.', 'Қызмет қазір дерекқорға қосыла алмайды; ештеңе өзгерген жоқ. Сәлден соң қайталап көріңіз.'],
  'err.TOKEN_REVOKED': ['Your session has ended: sign in again.', 'Сеанс завершён: войдите снова.', 'Сеанс аяқталды: қайта кіріңіз.'],
  'err.REFRESH_EXPIRED': ['Your session has expired: sign in again.', 'Сеанс истёк: войдите снова.', 'Сеанс мерзімі өтті: қайта кіріңіз.'],
  'err.REFRESH_REUSED': ['Your session was used elsewhere and closed: sign in again.', 'Сеанс использован повторно и закрыт: войдите снова.', 'Сеанс қайта қолданылып, жабылды: қайта кіріңіз.'],
  'err.REFRESH_REVOKED': ['You were signed out: sign in again.', 'Вы вышли из системы: войдите снова.', 'Сіз жүйеден шықтыңыз: қайта кіріңіз.'],
  'err.LOGIN_REQUIRED': ['Please sign in.', 'Пожалуйста, войдите.', 'Кіріңіз.'],
  'err.ROLE_REQUIRED': ['You may not do this.', 'Недостаточно прав.', 'Рұқсат жоқ.'],
  'err.NOT_ADMIN': ['Only an administrator may do this.', 'Это может только администратор.', 'Мұны тек әкімші жасай алады.'],
  'err.NOT_YOURS': ['This belongs to another player.', 'Это принадлежит другому игроку.', 'Бұл басқа ойыншыныкі.'],
  'err.NOT_FOUND': ['Not found.', 'Не найдено.', 'Табылмады.'],
  'err.INVALID_ID': ['No such item.', 'Такой записи нет.', 'Мұндай жазба жоқ.'],
  'err.SELF_DECISION': ['You cannot decide your own verification.', 'Нельзя решать по своей заявке.', 'Өз өтініміңіз бойынша шешім қабылдай алмайсыз.'],
  'err.TOO_MANY_ATTEMPTS': ['Too many attempts: try again later.', 'Слишком много попыток: попробуйте позже.', 'Тым көп әрекет: кейінірек көріңіз.'],
  'err.RATE_LIMITED': ['Too many requests: wait a moment.', 'Слишком много запросов: подождите.', 'Сұраныс тым көп: күте тұрыңыз.'],
  'err.REQUEST_TOO_LARGE': ['The request is too large.', 'Слишком большой запрос.', 'Сұраныс тым үлкен.'],
  'err.INVALID_API_KEY': ['The API key is not valid.', 'Недействительный API-ключ.', 'API кілті жарамсыз.'],
  'err.NO_PENDING_SEED': ['Get a new commitment first.', 'Сначала получите новое обязательство.', 'Алдымен жаңа міндеттеме алыңыз.'],
  'err.NO_SUCH_BOX': ['No such box in this hand.', 'В раздаче нет такого бокса.', 'Таратуда мұндай бокс жоқ.'],
  'err.INVALID_DECISION': ['Choose call or fold.', 'Выберите колл или фолд.', 'Колл не фолдты таңдаңыз.'],
  'err.POOL_TOO_LARGE': ['The pool is full for now.', 'Пул сейчас переполнен.', 'Пул қазір толы.'],
  'err.INVALID_REGISTER_ENTRY': ['The register entry is not valid.', 'Запись реестра некорректна.', 'Тізілім жазбасы жарамсыз.'],
  'err.INVALID_ZONE': ['Unknown time zone.', 'Неизвестный часовой пояс.', 'Белгісіз уақыт белдеуі.'],
  'err.INVALID_TRANSFER': ['The transfer is not valid.', 'Некорректный перевод.', 'Аударым жарамсыз.'],
  'err.UNKNOWN_ROUND': ['No such betting round.', 'Такого раунда ставок нет.', 'Мұндай бәс раунды жоқ.'],
  'err.WRONG_MARKET': ['This selection belongs to another market.', 'Этот исход относится к другому рынку.', 'Бұл нәтиже басқа нарыққа жатады.'],
  'err.INVALID_BET': ['The bet is not valid.', 'Недопустимая ставка.', 'Бәс жарамсыз.'],
  // The verifier's and the admin's refusals (the catalogues of domain/beacon, cards, hand, odds, money and tote).
  'err.BEACON_SCHEME': ['The randomness beacon uses a scheme we do not support.', 'Схема маяка случайности не поддерживается.', 'Кездейсоқтық маягының схемасы қолдау таппайды.'],
  'err.BEACON_CHAIN': ['The randomness beacon belongs to another chain.', 'Маяк случайности относится к другой цепочке.', 'Кездейсоқтық маягы басқа тізбекке тиесілі.'],
  'err.BEACON_KEY': ["The beacon's public key does not match.", 'Открытый ключ маяка не совпадает.', 'Маяктың ашық кілті сәйкес келмейді.'],
  'err.BEACON_INVALID': ["The beacon's signature does not verify.", 'Подпись маяка не проходит проверку.', 'Маяктың қолтаңбасы тексерістен өтпейді.'],
  'err.INVALID_CARD': ['That is not a card.', 'Такой карты не существует.', 'Мұндай карта жоқ.'],
  'err.DUPLICATE_CARD': ['A card appears twice.', 'Одна карта встречается дважды.', 'Бір карта екі рет кездеседі.'],
  'err.INVALID_SEED': ['The shuffle seed is not valid.', 'Неверное зерно перетасовки.', 'Араластыру дәні жарамсыз.'],
  'err.INVALID_COMMITMENT': ['The commitment is not valid.', 'Неверная хеш-фиксация.', 'Хеш-бекіту жарамсыз.'],
  'err.COMMITMENT_MISMATCH': ['The revealed seed does not match the commitment.', 'Раскрытое зерно не совпадает с фиксацией.', 'Ашылған дән бекітуге сәйкес келмейді.'],
  'err.INVALID_COEFFICIENT': ['The coefficient is not valid.', 'Неверный коэффициент.', 'Коэффициент жарамсыз.'],
  'err.WRONG_POSITION_COUNT': ['A table has from 2 to 10 positions.', 'За столом может быть от 2 до 10 позиций.', 'Үстелде 2-ден 10-ға дейін позиция болады.'],
  'err.WRONG_BOARD_SIZE': ['The board has the wrong number of cards.', 'На столе неверное число карт.', 'Үстелдегі карталар саны дұрыс емес.'],
  'err.WRONG_SAMPLE_COUNT': ['The sample size is not valid.', 'Неверный размер выборки.', 'Іріктеме көлемі жарамсыз.'],
  'err.TABLE_NAME_TAKEN': ['A table with this name already exists.', 'Стол с таким названием уже есть.', 'Мұндай атаулы үстел бұрыннан бар.'],
  'err.INTERNAL': ['Something went wrong on our side: try again.', 'Сбой на нашей стороне: попробуйте ещё раз.', 'Біз жақта ақау: қайталап көріңіз.'],
  'err.other': ['The server refused the request ({code}).', 'Сервер отклонил запрос ({code}).', 'Сервер сұранысты қабылдамады ({code}).'],
  // The back office: reports, partners' webhooks, the emergency stop.
  reports: ['Reports', 'Отчёты', 'Есептер'],
  reportsRange: ['Period', 'Период', 'Кезең'],
  last30: ['30 days', '30 дней', '30 күн'],
  last90: ['90 days', '90 дней', '90 күн'],
  chartTitle: ['Daily GGR and handle by table', 'GGR и оборот по дням и столам', 'Күн және үстел бойынша GGR мен айналым'],
  rDay: ['Day', 'День', 'Күн'],
  rGame: ['Game', 'Игра', 'Ойын'],
  rBets: ['Stakes', 'Ставок', 'Бәс саны'],
  rHandle: ['Handle', 'Оборот', 'Айналым'],
  rPayouts: ['Payouts', 'Выплаты', 'Төлемдер'],
  rRefunds: ['Refunds', 'Возвраты', 'Қайтарымдар'],
  rGgr: ['GGR', 'GGR', 'GGR'],
  rHold: ['Hold, %', 'Удержание, %', 'Ұстап қалу, %'],
  rCommission: ['Commission', 'Комиссия', 'Комиссия'],
  rBreakage: ['Breakage', 'Округление', 'Дөңгелектеу'],
  rTopUps: ['1.10 top-ups', 'Доплаты до 1,10', '1,10-ға дейін қосымша'],
  rJackpotIn: ['To the jackpot', 'В джекпот', 'Джекпотқа'],
  rJackpotOut: ['From the jackpot', 'Из джекпота', 'Джекпоттан'],
  rJackpotTopUps: ['Jackpot top-ups', 'Пополнения джекпота', 'Джекпотты толықтыру'],
  rDeposits: ['Deposits', 'Пополнения', 'Толықтырулар'],
  rWithdrawals: ['Withdrawals', 'Выводы', 'Шығарулар'],
  rTotals: ['Totals for the period', 'Итоги за период', 'Кезең қорытындысы'],
  rDaily: ['By day', 'По дням', 'Күндер бойынша'],
  allGames: ['All games', 'Все игры', 'Барлық ойындар'],
  'game.TOTE': ['Totalizator', 'Тотализатор', 'Тотализатор'],
  'game.HOLDEM': ["Casino Hold'em", 'Казино Холдем', 'Казино Холдем'],
  'game.CASHIER': ['Cashier', 'Касса', 'Касса'],
  noTable: ['no table', 'вне стола', 'үстелсіз'],
  liability: ['Liability now', 'Обязательства сейчас', 'Қазіргі міндеттемелер'],
  lWallets: ['Player wallets', 'Кошельки игроков', 'Ойыншы әмияндары'],
  lEscrow: ['Stakes in open draws', 'Ставки в открытых тиражах', 'Ашық тираждардағы бәстер'],
  lOpenHands: ["Open Casino Hold'em hands", 'Незавершённые раздачи Холдема', 'Аяқталмаған Холдем таратулары'],
  lTotal: ['Total', 'Всего', 'Барлығы'],
  lReconciled: ['Matches the ledger', 'Сходится с реестром', 'Тізілімге сәйкес'],
  lNotReconciled: ['Does not match the ledger: investigate', 'Не сходится с реестром: проверьте', 'Тізілімге сәйкес емес: тексеріңіз'],
  topWinners: ['Biggest winners', 'Крупнейшие выигрыши', 'Ең үлкен ұтыстар'],
  topLosers: ['Biggest losers', 'Крупнейшие проигрыши', 'Ең үлкен ұтылыстар'],
  pStaked: ['Staked', 'Поставлено', 'Қойылды'],
  pReturned: ['Returned', 'Возвращено', 'Қайтарылды'],
  pNet: ['Result', 'Итог', 'Нәтиже'],
  downloads: ['Download (CSV)', 'Скачать (CSV)', 'Жүктеу (CSV)'],
  'dl.daily-report.csv': ['Daily report', 'Отчёт по дням', 'Күндік есеп'],
  'dl.top-players.csv': ['Biggest losers', 'Крупнейшие проигрыши', 'Ең үлкен ұтылыстар'],
  'dl.liability.csv': ['Liability', 'Обязательства', 'Міндеттемелер'],
  'dl.regulator-reconciliation.csv': ["Regulator's reconciliation", 'Сверка для регулятора', 'Реттеушіге салыстыру'],
  'dl.regulator-feed.csv': ["Regulator's feed", 'Поток для регулятора', 'Реттеуші ағыны'],
  webhooks: ['Partner webhooks', 'Вебхуки партнёров', 'Серіктес вебхуктары'],
  whUrl: ['Receiver URL', 'Адрес получателя', 'Қабылдаушы мекенжайы'],
  whTypes: ['Events', 'События', 'Оқиғалар'],
  whDescription: ['Whose endpoint', 'Чей адрес', 'Кімнің мекенжайы'],
  whCreate: ['Register the endpoint', 'Зарегистрировать адрес', 'Мекенжайды тіркеу'],
  whSecret: ['Signing secret: shown once, hand it to the partner over a safe channel', 'Секрет подписи: показывается один раз, передайте партнёру по защищённому каналу', 'Қолтаңба құпиясы: бір рет көрсетіледі, серіктеске қауіпсіз арнамен беріңіз'],
  whDelivered: ['Delivered', 'Доставлено', 'Жеткізілді'],
  whFailing: ['Failing since', 'Ошибки с', 'Қателер басталды'],
  whParked: ['Parked', 'Остановлен', 'Тоқтатылды'],
  whReplay: ['Replay from event id', 'Повторить с события', 'Оқиғадан қайталау'],
  whResume: ['Resume', 'Возобновить', 'Жалғастыру'],
  whDelete: ['Remove', 'Удалить', 'Жою'],
  whDeleteQ: ['Stop sending to this endpoint for good?', 'Больше никогда не отправлять на этот адрес?', 'Бұл мекенжайға енді жібермеу керек пе?'],
  whNone: ['No endpoints yet.', 'Адресов пока нет.', 'Әзірге мекенжай жоқ.'],
  emergencyStop: ['Emergency stop of all betting', 'Экстренная остановка всех ставок', 'Барлық бәстерді шұғыл тоқтату'],
  stopRunning: ['Betting is open.', 'Ставки принимаются.', 'Бәстер қабылдануда.'],
  stopStopped: ['All betting is stopped since {at}.', 'Все ставки остановлены с {at}.', 'Барлық бәстер {at} бастап тоқтатылды.'],
  stopAll: ['Stop all betting', 'Остановить все ставки', 'Барлық бәстерді тоқтату'],
  stopQ: ['Every replica refuses every new stake within a second and no table opens a new draw; draws in progress finish. Stop?', 'Все серверы за секунду перестанут принимать ставки, новые тиражи не откроются; идущие тиражи завершатся. Остановить?', 'Барлық серверлер бір секундта бәс қабылдауды тоқтатады, жаңа тираждар ашылмайды; жүріп жатқандары аяқталады. Тоқтату керек пе?'],
  resumeAll: ['Resume betting', 'Возобновить ставки', 'Бәстерді жалғастыру'],
  resumeQ: ['Let stakes in again and resume the tables the stop paused?', 'Снова принимать ставки и возобновить столы, остановленные стопом?', 'Бәстерді қайта қабылдап, тоқтату кезінде тоқтаған үстелдерді жалғастыру керек пе?'],
  players: ['Players', 'Игроки', 'Ойыншылар'],
  playerSearch: ['Email, name, document number or hash', 'Почта, имя, номер документа или хеш', 'Пошта, аты, құжат нөмірі немесе хеші'],
  exclusionNow: ['Exclusion', 'Исключение', 'Шектеу'],
  limitsTitle: ['Limits', 'Лимиты', 'Лимиттер'],
  pendingLimit: ['Waiting for its cooling-off', 'Ждёт окончания паузы', 'Үзілістің аяқталуын күтуде'],
  sessionsTitle: ['Sessions of play (30 days)', 'Игровые сессии (30 дней)', 'Ойын сессиялары (30 күн)'],
  sStart: ['Start', 'Начало', 'Басы'],
  sEnd: ['Last play', 'Последняя игра', 'Соңғы ойын'],
  sWagered: ['Wagered', 'Поставлено', 'Қойылды'],
  sWon: ['Won', 'Выиграно', 'Ұтылды'],
  sStartBalance: ['Balance at start', 'Баланс в начале', 'Басындағы баланс'],
  sEndBalance: ['Balance at end', 'Баланс в конце', 'Соңындағы баланс'],
  sEndReason: ['Ended', 'Завершена', 'Аяқталды'],
  ledgerTitle: ['Ledger', 'Движение средств', 'Қаражат қозғалысы'],
  'se.IDLE': ['30 minutes without play', '30 минут без игры', '30 минут ойынсыз'],
  'se.OPEN': ['May still go on', 'Ещё может продолжиться', 'Әлі жалғасуы мүмкін'],
  'se.TIME_OUT': ['Time-out taken', 'Взят перерыв', 'Үзіліс алынды'],
  'se.SELF_EXCLUSION': ['Self-excluded', 'Самоисключение', 'Өзін-өзі шектеу'],
  'ex.TIME_OUT': ['Time-out', 'Перерыв', 'Үзіліс'],
  'ex.SELF_EXCLUSION': ['Self-exclusion', 'Самоисключение', 'Өзін-өзі шектеу'],
  'lk.DEPOSIT': ['Deposits', 'Пополнения', 'Толықтырулар'],
  'lk.STAKE': ['Stakes', 'Ставки', 'Бәстер'],
  'lk.LOSS': ['Losses', 'Проигрыш', 'Ұтылыс'],
  'lp.DAY': ['day', 'день', 'күн'],
  'lp.WEEK': ['week', 'неделя', 'апта'],
  'lp.MONTH': ['month', 'месяц', 'ай'],
  protectionEvents: ['Limits hit, time-outs and self-exclusions', 'Лимиты, перерывы и самоисключения', 'Лимиттер, үзілістер және өзін-өзі шектеу'],
  peKind: ['What', 'Что', 'Не'],
  peLast: ['Last', 'Последний раз', 'Соңғы рет'],
  'pe.DEPOSIT_LIMIT_HIT': ['Deposit refused by the deposit limit', 'Пополнение отклонено лимитом', 'Толықтыру лимитпен қабылданбады'],
  'pe.STAKE_LIMIT_HIT': ['Stake refused by the stake limit', 'Ставка отклонена лимитом ставок', 'Бәс лимитпен қабылданбады'],
  'pe.LOSS_LIMIT_HIT': ['Stake refused by the loss limit', 'Ставка отклонена лимитом проигрыша', 'Бәс ұтылыс лимитімен қабылданбады'],
  'pe.LIMIT_CHANGED': ['Limit changed', 'Лимит изменён', 'Лимит өзгертілді'],
  'pe.TIME_OUT': ['Time-out taken', 'Взят перерыв', 'Үзіліс алынды'],
  'pe.SELF_EXCLUSION': ['Self-excluded', 'Самоисключение', 'Өзін-өзі шектеу'],
  'dl.protection-events.csv': ['Protection events', 'События защиты игроков', 'Ойыншыны қорғау оқиғалары'],
};

const IDX: Record<Lang, number> = { en: 0, ru: 1, kk: 2 };

/** t translates a key in the current language, filling {name} placeholders. */
export function t(key: string, vars?: Record<string, string | number>): string {
  const row = T[key];
  let s = row ? row[IDX[lang.value]] : key;
  if (vars) for (const [k, v] of Object.entries(vars)) s = s.replace('{' + k + '}', String(v));
  return s;
}

/** has reports whether a key exists (the tests check every reason is translated). */
export function has(key: string): boolean { return key in T; }

// Reasons that name a fault of the service or a client bug rather than
// something the player can change: they read as one "our side" sentence.
const INTERNAL = new Set(`BATCH_NOT_SUPPORTED DEPTH_LIMIT_EXCEEDED DRAW_CHANGED EVENTS_PRUNED HAND_CHANGED HAND_REPLAY_FAILED
  INTROSPECTION_DISABLED INVALID_ACCOUNT INVALID_CONFIG INVALID_CURSOR INVALID_DEAL INVALID_OUTCOME INVALID_POOL_CONFIG INVALID_SEQ
  LEASE_HELD LEASE_LOST LEDGER_INCONSISTENT MALFORMED_REQUEST METHOD_NOT_ALLOWED NOT_ACCEPTABLE REGFEED_UNFED_KIND REPORT_UNREPORTED_KIND UNSUPPORTED_MEDIA_TYPE VERIFICATION_CHANGED WEAK_PASSWORD_HASHING`.split(/\s+/));

/** translated reports whether a refusal reason reads as a sentence of its own or as the "our side" one (the unit test checks the server's catalogue). */
export function translated(reason: string): boolean { return has('err.' + reason) || INTERNAL.has(reason); }

/**
 * errorText turns an API refusal into a sentence in the player's language, by
 * its stable extensions.reason (then its code); the server's English message
 * is never shown, only the reason code of one the client does not know yet.
 */
export function errorText(e: unknown): string {
  const err = e as { code?: string; reason?: string; message?: string };
  if (err?.reason && has('err.' + err.reason)) return t('err.' + err.reason);
  if (err?.reason && INTERNAL.has(err.reason)) return t('err.INTERNAL');
  if (err?.code && has('err.' + err.code)) return t('err.' + err.code);
  return t('err.other', { code: err?.reason || err?.code || 'NETWORK' });
}

// Kazakh writes numbers as Russian does in Kazakhstan (CLDR: "5 980,00 ₸").
// Chromium's ICU lists kk-KZ but formats it with the root locale's English
// separators ("₸ 5,980.00"), so the client asks for a decimal comma and
// takes ru-KZ's (the same separators and sign position) when it is missing.
const kkLocale = new Intl.NumberFormat('kk-KZ', { minimumFractionDigits: 1 }).format(1.5) === '1,5' ? 'kk-KZ' : 'ru-KZ';
const LOCALE: Record<Lang, string> = { en: 'en-GB', ru: 'ru-RU', kk: kkLocale };
/**
 * The operator's time zone: ages and days are counted in it on the server
 * (TIME_ZONE, default Asia/Almaty); the API does not publish it, so the
 * client shows dates in the same default.
 */
export const OPERATOR_ZONE = 'Asia/Almaty';

const fmts = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function nf(kind: string, opts: Intl.NumberFormatOptions): Intl.NumberFormat {
  const k = lang.value + kind;
  let f = fmts.get(k) as Intl.NumberFormat | undefined;
  if (!f) { f = new Intl.NumberFormat(LOCALE[lang.value], opts); fmts.set(k, f); }
  return f;
}

/** money formats a "1250.00" string in the language's own way (ru/kk "1 250,00 ₸", en "₸1,250.00"). */
export function money(s: string | null | undefined): string {
  if (s == null) return '—';
  return nf('money', { style: 'currency', currency: 'KZT', currencyDisplay: 'narrowSymbol', minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Number(s)).replace('-', '−');
}

/** num formats a count or a decimal string ("2.35") with the language's separators, keeping its decimals. */
export function num(v: string | number | null | undefined, digits?: number): string {
  if (v == null || v === '') return '—';
  const d = digits ?? (typeof v === 'string' && v.includes('.') ? v.split('.')[1].length : 0);
  return nf('num' + d, { minimumFractionDigits: d, maximumFractionDigits: d }).format(Number(v));
}

/** pct formats a share (0.253) as a percentage with one decimal. */
export function pct(v: number): string {
  return nf('pct', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(v);
}

/** dateTime formats an RFC 3339 time in the operator's zone. */
export function dateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const k = lang.value + 'dt';
  let f = fmts.get(k) as Intl.DateTimeFormat | undefined;
  if (!f) { f = new Intl.DateTimeFormat(LOCALE[lang.value], { timeZone: OPERATOR_ZONE, dateStyle: 'short', timeStyle: 'medium' }); fmts.set(k, f); }
  return f.format(new Date(iso));
}

/**
 * fromOperatorTime reads a wall-clock time typed in the operator's zone
 * ("2026-12-01T19:05", as a datetime-local input gives it) as an RFC 3339
 * instant; null when it is not such a time. The zone's offset is looked up
 * at that moment (a zone may have changed its offset over the years).
 */
export function fromOperatorTime(local: string): string | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(local);
  if (!m) return null;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +(m[6] ?? 0));
  const offset = (at: number) => {
    const p = Object.fromEntries(zoneParts.formatToParts(new Date(at)).map((x) => [x.type, x.value]));
    return Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour % 24, +p.minute, +p.second) - at;
  };
  // The instant whose wall time is `wall`: subtract the offset there (twice, in case it differs an offset away).
  let at = wall - offset(wall);
  at = wall - offset(at);
  return new Date(at).toISOString();
}
const zoneParts = new Intl.DateTimeFormat('en-US', {
  timeZone: OPERATOR_ZONE, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
});
