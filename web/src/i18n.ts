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
  commitmentOk: ['Commitment matches the server seed', 'Обязательство совпадает с сидом', 'Міндеттеме сидке сәйкес'],
  cardsOk: ['Cards match the shuffle', 'Карты совпадают с тасовкой', 'Карталар араластыруға сәйкес'],
  poolsOk: ['Pools and payouts recompute', 'Пулы и выплаты сходятся', 'Пулдар мен төлемдер сәйкес'],
  beaconsOk: ['Beacon rounds and signatures check out', 'Раунды маяка и подписи верны', 'Маяк раундтары мен қолтаңбалары дұрыс'],
  localBeacon: ["Dealt on the server's own local beacon: the cards follow from the seeds, but a local beacon proves nothing to a player.",
    'Раздано на собственном локальном маяке сервера: карты следуют из сидов, но локальный маяк ничего не доказывает игроку.',
    'Сервердің жергілікті маягында таратылды: карталар сидтерден шығады, бірақ жергілікті маяк ойыншыға ештеңе дәлелдемейді.'],
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
  'err.NOT_PENDING': ['This verification was already decided.', 'По этой заявке уже принято решение.', 'Бұл өтінім бойынша шешім қабылданған.'],
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
  'err.other': ['The server refused: {msg}', 'Сервер отказал: {msg}', 'Сервер бас тартты: {msg}'],
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

/** errorText turns an API refusal into a sentence in the player's language. */
export function errorText(e: unknown): string {
  const err = e as { code?: string; reason?: string; message?: string };
  if (err?.reason && has('err.' + err.reason)) return t('err.' + err.reason);
  if (err?.code && has('err.' + err.code)) return t('err.' + err.code);
  return t('err.other', { msg: err?.message ?? String(e) });
}

/** money formats a "1250.00" string for display with grouping and ₸. */
export function money(s: string | null | undefined): string {
  if (s == null) return '—';
  const [w, f = '00'] = s.split('.');
  const neg = w.startsWith('-');
  const digits = neg ? w.slice(1) : w;
  const grouped = digits.replace(/\B(?=(\d{3})+(?!\d))/g, '\u202f');
  return (neg ? '−' : '') + grouped + '.' + f + '\u00a0₸';
}
