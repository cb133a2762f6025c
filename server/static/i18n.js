// Labels in English and Japanese. Static labels carry data-i18n="key"; code calls t("key", ...args).
// The chosen language is kept in localStorage. Yaku, fu lines and wait shapes are named here from the engine's
// English names; the messages written by the server (problems, notes, errors) are said in Japanese where
// MESSAGES_JA knows their wording (those a photo or a hand most often gets), else as the server wrote them.
"use strict";

const STRINGS = {
  en: {
    subtitle: "read a riichi table, score the hand",
    tab_photo: "Photo", tab_typed: "Type a hand", tab_live: "Live", tab_calib: "My set", tabs_label: "mode",
    pick_photo: "Take or choose a photo", drop_hint: "or drop a photo here",
    mirrored: "mirrored (front camera)", profile: "Tile set", shipped_reader: "shipped reader",
    undo: "Undo", add_tile: "Add a tile", add_hint: "tap or click the photo where a tile is missing",
    list_sep: "; ", list_comma: ", ", sentence_end: ".", furiten_permanent: "Discard furiten", furiten_temporary: "Temporary furiten", furiten_riichi: "Riichi furiten", paren: "({0})", gap: " ", sentence_gap: " ", percent: "{0} %", one_tile: "1 tile", n_tiles: "{0} tiles",
    camera_not_found: "no camera found on this device", camera_refused: "the camera was not allowed: allow it in the browser's site settings",
    clear_photo: "Clear", clear_photo_help: "Put this photo away, and forget it in this browser",
    drop_photo: "Clearing the photo drops the corrections you made to its tiles. Clear it?",
    reading: "Reading the photo…", scoring: "Scoring…",
    kept_photo: "Your last photo, as you left it: choose another to start afresh.",
    tap_hint: "Tap a tile to correct it.",
    hand: "Hand", hand_help: "digits then suit: 123m 406p (0 = red five) 1122z (1-4z east south west north, 5-7z haku hatsu chun); melds after a space: 3'45m chi, 55'5p pon from across, [5555p] closed kan; 13 tiles and the winning tile, or 14",
    win_tile: "Winning tile", score: "Score", own_discards: "Own discards",
    seat_wind: "Seat wind", round_wind: "Round wind", dealer: "dealer", non_dealer: "non-dealer",
    win: "Win", tsumo: "tsumo", ron_from: "ron from {0}",
    riichi: "riichi", double_riichi: "double riichi", ippatsu: "ippatsu",
    haitei: "haitei / houtei", rinshan: "rinshan", chankan: "chankan",
    double_ron: "double ron: the other winner is nearer the discarder",
    readout_title: "The readout", dora: "Dora indicators", ura: "Ura indicators", from_photo: "from the photo", add: "add",
    pao: "Liable (pao)", pao_auto: "as the melds show",
    honba: "Honba", sticks: "Riichi sticks", kita: "North set aside (kita)", rules: "Rules", house_rules: "House rules", seat: "Score seat", more: "more",
    house_title: "option=value, ...", house_options: "the house rules that can be set",
    self: "me", left: "left", across: "across", right: "right",
    from_seat: "from {0}", read_as: "the reader read {0}; the rules say {1}",
    maybe_complete: "The {0} may be a {1} (the reader gives it {2}): then the hand is complete.", take_it: "Make it {0}",
    role_concealed: "concealed", role_meld: "meld", role_pond: "pond", role_dora: "dora", role_wall: "wall",
    role_stray: "stray", role_kita: "north set aside", low_conf: "unsure", won_tile: "winning tile", won_here: "won on this tile",
    read_surely: "Every tile of this hand was read at least {0} sure.",
    check_tiles: "{0} of this hand's tiles were read less surely (marked ?): check them before trusting the score.",
    show_them: "Show them",
    problems: "Problems", no_readout: "No score yet: fix the problems above (tap a problem to see its tiles).",
    no_readout_live: "No score yet: see the problems above (Freeze to correct the frame by hand).",
    exhaustive_draw: "exhaustive draw", exhaustive_draw_title: "At an exhaustive draw", noten: "Noten",
    draw_hidden: "hand face down", draw_unknown: "not known", nagashi: "nagashi mangan",
    draw_no_payments: "The payments follow once every seat's hand is in view and read, or its declaration is set.",
    declared_as_read: "as the photo shows", declared_tenpai: "declared tenpai", declared_noten: "declared noten",
    declared_label: "What {0} declared",
    furiten_no_ron: "Furiten: this hand cannot win by ron. What it would be worth:", furiten_ron_on: "No ron (furiten) on",
    draw_fourteen: "At an exhaustive draw a hand holds 13 tiles, and this one has 14: take out the tile discarded last. A win on the last tile drawn is a tsumo with haitei.", tenpai: "Tenpai", shanten: "{0}-shanten", complete: "Complete", no_yaku_win: "No yaku: this hand cannot win.",
    waits: "Waits", unseen: "{0} left", ron: "ron", no_yaku: "no yaku",
    won_on: "Won on", wait_kind: "{0} wait",
    han_fu: "{0} han {1} fu", yakuman_1: "yakuman", yakuman_2: "double yakuman", yakuman_3: "triple yakuman",
    yakuman_n: "{0}× yakuman", points: "{0} points", han: "{0} han",
    pays: "{0} pays {1}", honba_extra: " + {0} for honba", pays_all: "{0} all", honba_each: " + {0} each for honba",
    draw_typed: "At an exhaustive draw: the hand's waits are above. The noten payments need every seat's hand: read a photo of the whole table.", winner_gains: "Winner gains {0}.",
    fu: "Fu", yaku: "Yaku", furiten: "Furiten", discard_then: "discard {0} → waits {1} ({2} left)",
    discard_nearer: "discard {0} → {1}-shanten, nearer on {2} ({3} left)", nearer_on: "Nearer on {0} ({1} left)",
    table: "Table", hidden: "{0} face down", riichi_seat: "riichi", pond_n: "pond {0}",
    picker_title: "Which tile?", picker_likely: "The reader also thought of", face_down: "face down", turn: "turn sideways", delete: "delete", close: "close",
    remove_tile: "{0}: remove", picker_zoom: "the tile as the photo shows it",
    dora_tile: "dora indicator",
    error: "Error", bad_table: "The server gave no table.",
    limit_mangan: "mangan", limit_haneman: "haneman", limit_baiman: "baiman", limit_sanbaiman: "sanbaiman",
    limit_yakuman: "yakuman", limit_kazoe: "kazoe yakuman",
    chi: "chi", pon: "pon", daiminkan: "open kan", kakan: "added kan", ankan: "closed kan",
    photo_first: "Choose a photo first.",
    drop_corrections: "Reading the photo again drops the corrections you made to its tiles. Read it again?",
    live_source: "camera", live_this_device: "this device", live_server_camera: "the server's camera",
    live_start: "Start", live_stop: "Stop", freeze: "Freeze",
    live_stats: "{0} frames/s · server {1} ms · {2} dropped",
    live_starting: "Starting the camera…", live_connecting: "Connecting…", live_waiting: "Reading the first frames…",
    live_hint: "A tile shows once it has been seen in 3 frames. Freeze to correct the current frame by hand.",
    live_stopped: "Stopped.", live_closed: "the live connection closed ({0})",
    no_camera_api: "this browser gives the page no camera here: live mode needs http://localhost or https (over --lan use Photo, or the server's camera)",
    camera_failed: "the camera could not be opened: {0}",
    access_code: "the access code is missing or wrong: open the address with ?code=… that riichi-lens serve --lan printed",
    calib_title: "Teach riichi-lens your own tile set",
    calib_intro: "Lay one of each tile face up in a grid, left to right and top to bottom, and photograph it from above:",
    calib_row: "row {0}", calib_reds: "the red fives, if the set has them", calib_back: "one face-down tile (recommended)",
    calib_tips: "Rows may touch or lie apart. Keep the photo roughly upright, the tiles well lit and large in the photo.",
    calib_pick: "Take or choose the grid photo",
    calib_check: "Check each tile's kind (the small tile drawn on it); tap a tile to change it.",
    calib_name: "Name of the set", calib_name_help: "letters, digits, _ or -", calib_learn: "Learn this set",
    calib_finding: "Finding the grid…", calib_found: "{0} tiles found.", calib_learning: "Learning your set… (5–20 s)",
    calib_done: "Learnt “{0}”: {1} faces in {2} s. It is chosen under Tile set, for photos and live mode.",
    calib_saved: "Sets learnt on this machine", calib_none: "none yet", calib_delete: "Delete",
    calib_delete_named: "Delete the set “{0}”", calib_delete_confirm: "Delete the set “{0}”? Photos are then read without it.",
    calib_replace: "A set named “{0}” is learnt already: replace it with this one?",
    calib_back_advice: "Note: a face of this set (a coloured one: a blank face is never taken for a back) can look face down, so tiles are read as face down only when they look more so. To teach the set's back, add a face-down tile at the end of the first row and learn again.",
    calib_bad_name: "name the set with 1 to 40 letters, digits, _ or -",
    calib_photo_first: "take or choose the grid photo first",
    calib_twice: "twice: {0}", calib_missing: "missing: {0}",
    wind_E: "E 東", wind_S: "S 南", wind_W: "W 西", wind_N: "N 北",
    ruleset_tenhou: "Tenhou", "ruleset_tenhou-sanma": "Tenhou, three players", "ruleset_mahjong-soul": "Mahjong Soul",
    "ruleset_mahjong-soul-sanma": "Mahjong Soul, three players", ruleset_wrc: "WRC", ruleset_ema: "EMA",
  },
  ja: {
    subtitle: "卓を読んで点数計算",
    tab_photo: "写真", tab_typed: "手牌入力", tab_live: "ライブ", tab_calib: "牌セット", tabs_label: "モード",
    pick_photo: "写真を撮る・選ぶ", drop_hint: "またはここに写真をドロップ",
    mirrored: "左右反転（インカメラ）", profile: "牌セット", shipped_reader: "標準の読み取り",
    undo: "元に戻す", add_tile: "牌を追加", add_hint: "牌が抜けている所を写真上でタップ（クリック）",
    list_sep: "、", list_comma: "、", sentence_end: "。", furiten_permanent: "捨て牌フリテン", furiten_temporary: "同巡内フリテン", furiten_riichi: "リーチ後フリテン", paren: "（{0}）", gap: "", sentence_gap: "", percent: "{0}%", one_tile: "1枚", n_tiles: "{0}枚",
    camera_not_found: "この端末にカメラが見つかりません", camera_refused: "カメラの使用が許可されていません。ブラウザのサイト設定で許可してください",
    clear_photo: "消去", clear_photo_help: "この写真を閉じ、このブラウザからも消去します",
    drop_photo: "写真を消去すると、牌に加えた修正も失われます。消去しますか？",
    reading: "写真を読んでいます…", scoring: "計算中…",
    kept_photo: "前回の写真を、そのときのまま表示しています。新しい写真を選ぶと置き換わります。",
    tap_hint: "牌をタップして修正できます。",
    hand: "手牌", hand_help: "数字の後に色の文字（m=萬子, p=筒子, s=索子, z=字牌）: 123m 406p（0 = 赤五）1122z（1-4z 東南西北、5-7z 白發中）。副露は空白の後: 3'45m チー, 55'5p 対面からポン, [5555p] 暗槓。13枚と和了牌、または14枚",
    win_tile: "和了牌", score: "計算", own_discards: "自分の捨て牌",
    seat_wind: "自風", round_wind: "場風", dealer: "親", non_dealer: "子",
    win: "和了", tsumo: "ツモ", ron_from: "{0}からロン",
    riichi: "リーチ", double_riichi: "ダブルリーチ", ippatsu: "一発",
    haitei: "海底 / 河底", rinshan: "嶺上開花", chankan: "槍槓",
    double_ron: "ダブロン: もう一人の和了者の方が放銃者に近い（本場・供託はその人に）",
    readout_title: "判定と点数", dora: "ドラ表示牌", ura: "裏ドラ表示牌", from_photo: "写真から", add: "追加",
    pao: "責任払い（パオ）", pao_auto: "副露から判断",
    honba: "本場", sticks: "供託（リーチ棒）", kita: "北抜き", rules: "ルール", house_rules: "ローカルルール", seat: "計算する席", more: "その他",
    house_title: "オプション=値, …（名前と値は英字で）", house_options: "設定できるローカルルール",
    self: "自分", left: "上家", across: "対面", right: "下家",
    from_seat: "{0}から", read_as: "読み取りは{0}、ルール上{1}",
    maybe_complete: "{0}は{1}かもしれません（読み取りの確率{2}）。それなら和了形です。", take_it: "{0}にする",
    read_surely: "この手の牌はすべて信頼度{0}以上で読み取れました。",
    check_tiles: "この手の牌のうち{0}枚は信頼度が低めです（?印）。点数を信じる前に確かめてください。",
    show_them: "表示する",
    role_concealed: "手牌", role_meld: "副露", role_pond: "河", role_dora: "ドラ表示牌", role_wall: "山",
    role_stray: "所属不明", role_kita: "抜きドラ", low_conf: "要確認", won_tile: "和了牌", won_here: "和了牌にする",
    problems: "問題", no_readout: "まだ計算できません: 上の問題を直してください（問題をタップすると牌を表示）。",
    no_readout_live: "まだ計算できません: 上の問題を見てください（「静止して修正」で手で直せます）。",
    exhaustive_draw: "流局", exhaustive_draw_title: "流局時", noten: "ノーテン",
    draw_hidden: "手牌伏せ", draw_unknown: "不明", nagashi: "流し満貫",
    draw_no_payments: "全員の手牌が写って読めるか、宣言を選ぶと、ノーテン罰符を表示します。",
    declared_as_read: "写真のとおり", declared_tenpai: "テンパイ宣言", declared_noten: "ノーテン宣言",
    declared_label: "{0}の宣言",
    furiten_no_ron: "フリテン: この手はロンで和了できません。和了できた場合の点数:", furiten_ron_on: "フリテンでロン不可:",
    draw_fourteen: "流局時の手牌は13枚ですが、この手は14枚です。最後に捨てた牌を除いてください。最後の牌でツモ和了したなら、ツモと海底を選んでください。", tenpai: "テンパイ", shanten: "{0}向聴", complete: "和了形", no_yaku_win: "役なし: 和了できません。",
    waits: "待ち", unseen: "残り{0}枚", ron: "ロン", no_yaku: "役なし",
    won_on: "和了牌", wait_kind: "{0}待ち",
    han_fu: "{0}翻{1}符", yakuman_1: "役満", yakuman_2: "ダブル役満", yakuman_3: "トリプル役満",
    yakuman_n: "{0}倍役満", points: "{0}点", han: "{0}翻",
    pays: "{0}: {1}点", honba_extra: "＋本場{0}点", pays_all: "{0}オール", honba_each: "（各＋本場{0}点）",
    draw_typed: "流局時: この手の待ちは上のとおりです。ノーテン罰符には全員の手牌が要るので、卓全体の写真から読み取ってください。", winner_gains: "和了者の獲得は計{0}点。",
    fu: "符", yaku: "役", furiten: "フリテン", discard_then: "{0}切り → 待ち {1}（残り{2}枚）",
    discard_nearer: "{0}切り → {1}向聴、有効牌 {2}（残り{3}枚）", nearer_on: "有効牌 {0}（残り{1}枚）",
    table: "卓", hidden: "伏せ牌{0}枚", riichi_seat: "リーチ", pond_n: "河{0}枚",
    picker_title: "どの牌？", picker_likely: "ほかの候補", face_down: "伏せ牌", turn: "横向きにする", delete: "削除", close: "閉じる",
    remove_tile: "{0}: 外す", picker_zoom: "写真に写っているこの牌",
    dora_tile: "ドラ表示牌",
    error: "エラー", bad_table: "サーバーから卓の情報が返りませんでした。",
    limit_mangan: "満貫", limit_haneman: "跳満", limit_baiman: "倍満", limit_sanbaiman: "三倍満",
    limit_yakuman: "役満", limit_kazoe: "数え役満",
    chi: "チー", pon: "ポン", daiminkan: "大明槓", kakan: "加槓", ankan: "暗槓",
    photo_first: "先に写真を選んでください。",
    drop_corrections: "写真を読み直すと、牌に加えた修正は失われます。読み直しますか？",
    live_source: "カメラ", live_this_device: "この端末", live_server_camera: "サーバーのカメラ",
    live_start: "開始", live_stop: "停止", freeze: "静止して修正",
    live_stats: "{0} フレーム/秒 · サーバー {1} ms · {2}フレーム欠落",
    live_starting: "カメラを起動しています…", live_connecting: "接続しています…", live_waiting: "最初のフレームを読んでいます…",
    live_hint: "牌は3フレームで確認されてから表示されます。「静止して修正」で今のフレームを手で直せます。",
    live_stopped: "停止しました。", live_closed: "ライブ接続が切れました（{0}）",
    no_camera_api: "このブラウザではここでカメラを使えません: ライブは http://localhost か https が必要です（--lan では写真かサーバーのカメラを使ってください）",
    camera_failed: "カメラを開けませんでした: {0}",
    access_code: "アクセスコードがないか違います: riichi-lens serve --lan が表示した ?code=… 付きのアドレスを開いてください",
    calib_title: "自分の牌セットを覚えさせる",
    calib_intro: "各牌を1枚ずつ表向きに、左から右・上から下の順に並べ、真上から撮影してください:",
    calib_row: "{0}段目", calib_reds: "赤五（セットにあれば）", calib_back: "伏せ牌1枚（推奨）",
    calib_tips: "段は接していても離れていても構いません。写真はほぼ正立で、牌を明るく大きく写してください。",
    calib_pick: "並べた牌の写真を撮る・選ぶ",
    calib_check: "各牌の種類（牌の上の小さな牌）を確認し、違う牌はタップして直してください。",
    calib_name: "セットの名前", calib_name_help: "英字・数字・_・-", calib_learn: "このセットを学習",
    calib_finding: "並びを探しています…", calib_found: "{0}枚見つかりました。", calib_learning: "学習中…（5〜20秒）",
    calib_done: "「{0}」を学習しました: {1}種類、{2}秒。牌セットで選択済みです（写真とライブで使われます）。",
    calib_saved: "このマシンで学習した牌セット", calib_none: "まだありません", calib_delete: "削除",
    calib_delete_named: "牌セット「{0}」を削除", calib_delete_confirm: "牌セット「{0}」を削除しますか？ 以後の写真はこのセットなしで読みます。",
    calib_replace: "「{0}」という牌セットはすでにあります。この内容で置き換えますか？",
    calib_back_advice: "注意: このセットの色のある牌が伏せ牌に見えることがあるため、それ以上に伏せ牌らしい牌だけを伏せ牌と読みます。牌の裏を覚えさせるには、1段目の最後に伏せ牌を置いて学習し直してください。",
    calib_bad_name: "セット名は英字・数字・_・- の1〜40文字にしてください",
    calib_photo_first: "先に並べた牌の写真を撮るか選んでください",
    calib_twice: "重複: {0}", calib_missing: "不足: {0}",
    wind_E: "東", wind_S: "南", wind_W: "西", wind_N: "北",
    ruleset_tenhou: "天鳳", "ruleset_tenhou-sanma": "天鳳（三人麻雀）", "ruleset_mahjong-soul": "雀魂",
    "ruleset_mahjong-soul-sanma": "雀魂（三人麻雀）", ruleset_wrc: "WRC", ruleset_ema: "EMA",
  },
};

// Hand forms and wait shapes as the rules engine names them -> Japanese.
const TERMS_JA = {
  regular: "一般形", chiitoitsu: "七対子", kokushi: "国士無双", ryanmen: "両面", kanchan: "嵌張", penchan: "辺張",
  shanpon: "シャンポン", tanki: "単騎", "thirteen-sided": "十三面",
};

// The rules engine's yaku names -> kanji (names not listed are shown as they come).
const YAKU_JA = {
  "menzen tsumo": "門前清自摸和", "riichi": "立直", "ippatsu": "一発", "chankan": "槍槓",
  "rinshan kaihou": "嶺上開花", "haitei": "海底摸月", "houtei": "河底撈魚", "pinfu": "平和", "tanyao": "断幺九",
  "iipeikou": "一盃口", "seat wind east": "自風 東", "seat wind south": "自風 南", "seat wind west": "自風 西",
  "seat wind north": "自風 北", "round wind east": "場風 東", "round wind south": "場風 南",
  "round wind west": "場風 西", "round wind north": "場風 北", "haku": "役牌 白", "hatsu": "役牌 發", "chun": "役牌 中",
  "double riichi": "ダブル立直", "chiitoitsu": "七対子", "chanta": "混全帯幺九", "ittsu": "一気通貫",
  "sanshoku doujun": "三色同順", "sanshoku doukou": "三色同刻", "sankantsu": "三槓子", "toitoi": "対々和",
  "sanankou": "三暗刻", "shousangen": "小三元", "honroutou": "混老頭", "ryanpeikou": "二盃口",
  "junchan": "純全帯幺九", "honitsu": "混一色", "chinitsu": "清一色", "renhou": "人和",
  "kokushi musou": "国士無双", "kokushi musou 13-sided": "国士無双十三面", "suuankou": "四暗刻",
  "suuankou tanki": "四暗刻単騎", "daisangen": "大三元", "shousuushii": "小四喜", "daisuushii": "大四喜",
  "tsuuiisou": "字一色", "chinroutou": "清老頭", "ryuuiisou": "緑一色", "chuuren poutou": "九蓮宝燈",
  "junsei chuuren poutou": "純正九蓮宝燈", "suukantsu": "四槓子", "tenhou": "天和", "chiihou": "地和",
  "dora": "ドラ", "aka dora": "赤ドラ", "ura dora": "裏ドラ", "kita": "抜きドラ",
};

const LANG_KEY = "riichi-lens.lang";
let lang = localStorage.getItem(LANG_KEY) === "ja" ? "ja" : "en";

function t(key, ...args) {
  const s = STRINGS[lang][key] ?? STRINGS.en[key] ?? key;
  return s.replace(/\{(\d)\}/g, (_, i) => args[+i]);
}

function yakuName(name) {
  return lang === "ja" && YAKU_JA[name] ? YAKU_JA[name] : name;
}

// The rules engine's fu lines -> Japanese: fixed lines whole, a set's or pair's line by its words before the tiles.
const FU_JA = {
  "base (futei)": "副底", "closed ron (menzen kafu)": "門前加符", "seven pairs": "七対子", "tsumo": "ツモ符",
  "closed wait (kanchan)": "嵌張待ち", "edge wait (penchan)": "辺張待ち", "pair wait (tanki)": "単騎待ち",
  "open hand without fu (counted as 30)": "喰い平和形（30符扱い）",
};
const FU_SET_JA = {
  "closed triplet": "暗刻", "open triplet": "明刻", "closed kan": "暗槓", "open kan": "明槓", "value pair": "役牌雀頭",
};

function fuName(item) {
  if (lang !== "ja") return item;
  if (FU_JA[item]) return FU_JA[item];
  const cut = item.lastIndexOf(" ");
  const words = FU_SET_JA[item.slice(0, cut)];
  return words ? `${words} ${item.slice(cut + 1)}` : item;
}

// The server's problems, notes and errors, written in English -> Japanese, by their wording (each pattern whole; a
// tile stays in notation). A message none matches is shown as written: new wording falls back, never breaks.
const WHERE_JA = { hand: "手牌", "the hand with the visible tiles": "手牌と場に見えている牌", "the hand with the discard": "手牌と鳴く捨て牌" };
const TILE = "([0-9]+[mpsz]|back)";
const HOW_JA = { ron: "ロン", tsumo: "ツモ", win: "和了" };
const NOT_IMAGES_JA = {
  "a PDF document": "PDF文書", "a ZIP archive": "ZIPファイル", "a GIF (not supported)": "GIF（読めません）",
  "a video or HEIC file (not supported: export as JPEG)": "動画かHEICファイル（読めません。JPEGで書き出してください）",
};
const MESSAGES_JA = [
  [/^options not applied: (.*)$/s, (m) => `設定を適用できません: ${messageText(m[1])}`], // live mode: what was refused, said too
  [/^a sideways or face-down tile among the concealed tiles$/, () => "手牌の中に横向きの牌か伏せ牌があります"],
  [/^hand has (\d+) concealed tiles? and (\d+) melds? = (\d+) tiles?; a hand has 13 \(waiting\) or 14 \(complete\), counting 3 per meld$/,
    (m) => `手牌${m[1]}枚と副露${m[2]}組で${m[3]}枚です。副露は1組3枚と数えて、13枚（待ち）か14枚（和了形）のはずです`],
  [/^a hand has at most 4 melds, not (\d+)$/, (m) => `副露は4組までです（${m[1]}組あります）`],
  [new RegExp(`^(\\d+) copies of ${TILE} are face up: a set has only four, so one is misread$`),
    (m) => `${m[2]}が${m[1]}枚見えています。同じ牌は4枚しかないので、どれかが誤読です`],
  [new RegExp(`^(hand|the hand with the visible tiles|the hand with the discard) shows (\\d+) copies of ${TILE}: a set has only four$`),
    (m) => `${WHERE_JA[m[1]]}に${m[3]}が${m[2]}枚あります。同じ牌は4枚までです`],
  [/^(hand|the hand with the visible tiles|the hand with the discard) shows (\d+) red fives? (0[mps]): the set (?:has (\d+)|is played without red fives of that suit)$/,
    (m) => `${WHERE_JA[m[1]]}に赤五の${m[3]}が${m[2]}枚あります。` + (m[4] ? `赤五${m[3]}は${m[4]}枚までです` : "この色の赤五は使わないルールです")],
  [/^no face-up hand in view for seat (self|right|across|left)$/, (m) => `${t(m[1])}の表向きの手牌が写っていません`],
  [/^no tiles found in the photo$/, () => "写真に牌が見つかりません"],
  [/^(\d+) tiles lie on one another \(([^)]*)\): one tile found or added more than once; delete all but one$/,
    (m) => `${m[1]}枚の牌が重なっています（${m[2]}）。同じ牌を二重に読んだか追加したものです。1枚だけ残して削除してください`],
  [/^no hand in view$/, () => "手牌が写っていません"],
  [/^(\d+) tiles: a hand at the draw holds 13, counting 3 per meld$/, (m) => `${m[1]}枚です。流局時の手牌は副露を1組3枚と数えて13枚です`],
  [/^(self|right|across|left): the pond shows only terminals and honours, none called, but (\d+) discards: nagashi mangan needs the whole pond in view \(at least (\d+)\)$/,
    (m) => `${t(m[1])}: 河は幺九牌だけで鳴かれてもいませんが、${m[2]}枚しか見えません。流し満貫には河全体（${m[3]}枚以上）が写っている必要があります`],
  [/^(self|right|across|left): nagashi mangan, paid as a tsumo instead of the noten payments$/,
    (m) => `${t(m[1])}: 流し満貫。ノーテン罰符の代わりにツモの満貫として払います`],
  [/^pao: (right|across|left) fed the last (dragon|wind) set \(the meld nearest the hand, melds being laid from the right edge inward\), so \1 is liable for the (daisangen|daisuushii)$/,
    (m) => `責任払い（パオ）: 最後の${m[2] === "dragon" ? "三元牌" : "風牌"}の副露（手牌にいちばん近い副露。副露は右端から順に並べるため）が${t(m[1])}からなので、${yakuName(m[3])}は${t(m[1])}の責任払いです`],
  [new RegExp(`^the tile marked as the winning one \\(${TILE}\\) is not taken: the hand shows (\\d+) tiles(, not one of its concealed tiles)?; a winning tile is one of a 14-tile hand's concealed tiles$`),
    (m) => `和了牌に指定した牌（${m[1]}）は使いません: 手牌は${m[2]}枚${m[3] ? "で、その牌は手牌の中にありません" : "です"}。和了牌は14枚の手牌の中の牌です`],
  [/^pao: no dragon or wind set of this hand was called from (right|across|left), so \1 is not liable$/,
    (m) => `責任払い（パオ）: この手の三元牌・風牌の副露に${t(m[1])}から鳴いたものがないので、${t(m[1])}の責任払いにはなりません`],
  [/^pao not applied: (right|across|left) fed no (dragon|wind)( or wind)? set of this hand$/,
    (m) => `責任払い（パオ）なし: ${t(m[1])}はこの手の${m[3] ? "三元牌・風牌" : m[2] === "dragon" ? "三元牌" : "風牌"}の副露を鳴かせていません`],
  [/^(self|right|across|left): declared tenpai, but its hand is not tenpai$/,
    (m) => `${t(m[1])}: テンパイ宣言ですが、手牌はテンパイしていません`],
  [/^(self|right|across|left): in riichi \(a tile lies sideways in its pond\) but noten at the draw: check its hand, or the riichi was false \(chombo under most rules\)$/,
    (m) => `${t(m[1])}: リーチ（河に横向きの牌）なのに流局時ノーテンです。手牌を確かめてください。誤りでなければノーテンリーチで、多くのルールでチョンボです`],
  [/^(pon|daiminkan|kakan|ankan) ([0-9mpsz']+) is not (\d+) of the same tile$/, (m) => `${t(m[1])} ${m[2]} は同じ牌${m[3]}枚ではありません`],
  [/^chi ([0-9mpsz']+) is not a run of three in one suit$/, (m) => `チー ${m[1]} が順子になっていません`],
  [/^chi ([0-9mpsz']+) called from (right|across|left): chi is only from the left player$/,
    (m) => `チー ${m[1]} を${t(m[2])}から鳴いています。チーは上家からしか鳴けません`],
  [/^face-down tiles in an open meld$/, () => "副露に伏せ牌があります"],
  [/^a meld needs one sideways \(called\) tile, these (\d+) have (?:no sideways tile|(\d+) sideways tiles)$/,
    (m) => `副露には横向きの（鳴いた）牌が1枚要りますが、この${m[1]}枚では` + (m[2] ? `${m[2]}枚が横向きです` : "横向きの牌がありません")],
  [/^an added kan is three places with two tiles stacked sideways$/, () => "加槓は牌3枚分の並びで、そのうち1か所に横向きの牌を2枚重ねます"],
  [/^(\d+) (dora|ura dora) indicators: at most 5 \(the first and one per kan\)$/,
    (m) => `${m[2] === "dora" ? "ドラ" : "裏ドラ"}表示牌が${m[1]}枚あります。最初の1枚とカンごとに1枚、最大5枚です`],
  [/^the hand shows (\d+) tiles and runs to the photo's edge: a tile may be cut off; take the photo again with the whole hand in it$/,
    (m) => `手牌は${m[1]}枚写っていて、写真の端まで続いています。端で見切れている牌があるかもしれません。手牌全体が入るように撮り直してください`],
  [new RegExp(`^a set has four ${TILE}: the least sure fifth one is taken as ${TILE}, also likely to the reader$`),
    (m) => `${m[1]}は4枚しかないので、5枚のうち最も信頼度の低い1枚を、読み取りの候補にもある${m[2] === "back" ? "伏せ牌" : m[2]}としました`],
  [new RegExp(`^a hand sorted but for one tile: its ${TILE} is taken as ${TILE}, also likely to the reader, which puts it in order$`),
    (m) => `理牌された手牌で1枚だけ順が合わないので、その${m[1]}を読み取りの候補にもある${m[2]}としました（これで順に並びます）`],
  [new RegExp(`^a hand sorted but for two tiles: its ${TILE} and ${TILE} are taken as ${TILE} and ${TILE}, also likely to the reader, which puts it in order$`),
    (m) => `理牌された手牌で2枚だけ順が合わないので、その${m[1]}と${m[2]}を読み取りの候補にもある${m[3]}と${m[4]}としました（これで順に並びます）`],
  [new RegExp(`^a tile read as ${TILE} is taken as ${TILE}, also likely to the reader, to make the (chi|pon|daiminkan|kakan) legal$`),
    (m) => `${m[1]}と読んだ牌を、読み取りの候補にもある${m[2]}としました（${t(m[3])}として成り立つように）`],
  [new RegExp(`^an unsure box read as ${TILE}, overlapping the meld's tiles, is left out$`),
    (m) => `副露の牌に重なる、${m[1]}と読んだ信頼度の低い枠は除外しました`],
  [/^a red five may be hidden face down in the closed kan of ([0-9mpsz]+): counted as plain fives$/,
    (m) => `暗槓 ${m[1]} の伏せ牌に赤五があるかもしれません。赤でない五として数えています`],
  [/^two blank tiles read as haku are the face-down tiles of this closed kan \(white backs\)$/,
    () => "白と読んだ無地の2枚は、この暗槓の伏せ牌です（背が白い牌セット）"],
  [/^no tile of this chi shows lying sideways: a chi is called from the left player, so its called tile is taken to be its left one$/,
    () => "このチーには横向きの牌が見えません。チーは上家から鳴くので、左端の牌を鳴いた牌としました"],
  [/^two tiles of this meld look sideways: the called tile, and so whose discard it was, is taken to be the one more plainly sideways$/,
    () => "この副露は2枚が横向きに見えます。より明らかに横向きの牌を鳴いた牌とし、どこから鳴いたかもそれで判断しました"],
  [/^(\d+) tiles found, more than a table holds: the (\d+) surest were read$/,
    (m) => `牌が${m[1]}枚見つかり、卓上にあり得る枚数を超えています。信頼度の高い${m[2]}枚を読み取りました`],
  [/^the photo has no colour: a face-down tile is told from a haku by its back's colour, so face-down tiles may read as haku here; send the photo in colour$/,
    () => "写真がモノクロです。伏せ牌と白は背の色で見分けるため、ここでは伏せ牌が白と読まれることがあります。カラー写真を送ってください"],
  [new RegExp(`^winning tile not given: scored as won on ${TILE}, the reading worth most( that is not in furiten)?$`),
    (m) => `和了牌が指定されていないので、${m[2] ? "フリテンでない中で" : ""}最も高くなる${m[1]}での和了として計算しました`],
  [/^scored as a ron on the left player's discard: neither tsumo nor the discarder was given \(the value is the same; only who pays differs\)$/,
    () => "ツモか、誰からのロンかが指定されていないので、上家からのロンとして計算しました（点数は同じで、支払う人だけが違います）"],
  [/^furiten: this hand cannot win by ron$/, () => "フリテン: この手はロンで和了できません"],
  [/^let (.+) pass: no wait of this hand, so no furiten from it$/, (m) => `${m[1].replace(/, /g, "・")}の見逃し: この手の待ちではないのでフリテンになりません`],
  [new RegExp(`^no yaku when winning on ${TILE}: tenpai, but cannot win on it$`), (m) => `${m[1]}では役がありません。テンパイですが、この牌では和了できません`],
  [new RegExp(`^no yaku on a ron with ${TILE}: only a tsumo wins on it$`), (m) => `${m[1]}のロンでは役がありません。ツモなら和了できます`],
  [/^every winning tile is already visible: tenpai, but no copy is left to win on$/,
    () => "待ち牌はすべて見えています（空テン）。テンパイですが、和了できる牌が残っていません"],
  [/^not a complete hand$/, () => "和了形ではありません"],
  [new RegExp(`^the winning tile ${TILE} is taken with the 13 tiles given$`), (m) => `入力した13枚に和了牌${m[1]}を加えて計算しました`],
  [/^no atozuke in ruleset (\S+): no yaku on a (ron|tsumo|win) with ([0-9mpsz, ]+), so no (?:ron|tsumo|win) on any wait$/,
    (m) => `ルール「${m[1]}」は後付けなし: ${m[3]}の${HOW_JA[m[2]]}では役がないので、どの待ちでも${HOW_JA[m[2]]}できません`],
  [/^complete, but no yaku: dora alone cannot win$/, () => "和了形ですが役がありません。ドラだけでは和了できません"],
  [/^complete, but no yaku$/, () => "和了形ですが役がありません"],
  [/^ura dora indicators not counted: ura dora are for a hand in riichi$/, () => "裏ドラ表示牌は数えていません。裏ドラはリーチした手にだけ乗ります"],
  [/^ura dora indicators not counted: ruleset (\S+) has no ura dora$/, (m) => `裏ドラ表示牌は数えていません。ルール「${m[1]}」に裏ドラはありません`],
  [/^ippatsu not counted: ruleset (\S+) has no ippatsu$/, (m) => `一発は数えていません。ルール「${m[1]}」に一発はありません`],
  [/^renhou not counted: ruleset (\S+) has no renhou$/, (m) => `人和は数えていません。ルール「${m[1]}」に人和はありません`],
  // furiten's reasons (rules.readout.furiten)
  [/^waits on (.+) which the player discarded$/, (m) => `自分で捨てた${m[1]}を待っています`],
  [new RegExp(`^let ${TILE} pass after riichi: furiten for the rest of the hand$`), (m) => `リーチ後に${m[1]}を見逃しました。この局の終わりまでフリテンです`],
  [new RegExp(`^let ${TILE} pass: furiten until the player's next draw$`), (m) => `${m[1]}を見逃しました。次の自分のツモまでフリテンです`],
  // the context and the house rules refused (rules.context, rules.ruleset), the live camera
  [/^honba, riichi sticks and kita cannot be negative$/, () => "本場・供託・北抜きの数は負にできません"],
  [/^(\d+) ura dora indicators but (\d+) dora indicators?: each ura indicator lies under a dora indicator$/,
    (m) => `裏ドラ表示牌が${m[1]}枚、ドラ表示牌が${m[2]}枚です。裏ドラ表示牌はドラ表示牌の下にあるので、ドラ表示牌より多くはなりません`],
  [/^(riichi|double riichi) needs a closed hand: (\S+) is an open meld$/,
    (m) => `${t(m[1].replace(" ", "_"))}は門前でなければできません。${m[2]}は副露です`],
  // house rules: the option names, values and presets are what the user types, so they stay as typed, in 「」
  [/^ruleset option (\w+)='(.*)': yes or no$/, (m) => `ルール設定「${m[1]}=${m[2]}」: 「yes」か「no」を指定してください`],
  [/^ruleset option (\w+)='(.*)': a whole number from 0 to (\d+)$/, (m) => `ルール設定「${m[1]}=${m[2]}」: 0から${m[3]}までの整数を指定してください`],
  [/^ruleset option (\w+)='(.*)': 0 or 1 red five a suit, such as 1\/1\/1$/, (m) => `ルール設定「${m[1]}=${m[2]}」: 赤五は各色0か1枚で、「1/1/1」のように指定してください`],
  [/^ruleset option (\w+)='(.*)': ((?:\S+ or )+\S+)$/, (m) => `ルール設定「${m[1]}=${m[2]}」: ${m[3].split(" or ").map((v) => `「${v}」`).join("、")}のいずれかを指定してください`],
  [/^ruleset '(.*)': (\w+) given twice$/, (m) => `ルール「${m[1]}」: 「${m[2]}」が2回指定されています`],
  [/^ruleset '(.*)': '(.*)' is not option=value with an option of ([\w, ]+) \(the number of players comes with the preset\)$/,
    (m) => `ルール「${m[1]}」: 「${m[2]}」は「設定=値」の形ではないか、設定名が違います（設定は「${m[3]}」。人数はプリセットで決まります）`],
  [/^unknown ruleset '(.*)': one of ([\w, -]+), optionally followed by ':option=value,...'$/,
    (m) => `ルール「${m[1]}」はありません: 「${m[2]}」のいずれか（後に「:設定=値,...」を続けられます）`],
  [/^this server has no camera: start it with riichi-lens serve --camera 0$/,
    () => "このサーバーにはカメラがありません。riichi-lens serve --camera 0 で起動してください"],
  // the photo refused (vision.image, the server's upload limit) and a typed hand's tile not read
  [/^not an image: send a ((?:\w+, )*\w+)(?: or (\w+))? photo$/,
    (m) => `画像ではありません。${[...m[1].split(", "), ...(m[2] ? [m[2]] : [])].join("・")}の写真を送ってください`],
  [/^this is (a PDF document|a ZIP archive|a GIF \(not supported\)|a video or HEIC file \(not supported: export as JPEG\)), not a photo: send a JPEG or PNG$/,
    (m) => `これは写真ではなく${NOT_IMAGES_JA[m[1]]}です。JPEGかPNGを送ってください`],
  [/^the file is empty: it holds no image data$/, () => "ファイルが空です。画像のデータがありません"],
  [/^(?:image file is|the photo is over) (\d+) MiB(?:; the limit is (\d+) MiB|: send a smaller JPEG)$/,
    (m) => `写真が${m[1]} MiBあり、大きすぎます` + (m[2] ? `（上限${m[2]} MiB）` : "。もっと小さいJPEGを送ってください")],
  [/^the (JPEG|PNG) is truncated \(its end is missing\): send the whole file$/, (m) => `${m[1]}の終わりが欠けています。ファイル全体を送ってください`],
  [/^the JPEG is damaged: its image data breaks off and the last (\d+)% of it shows as blank grey: send the file again$/,
    (m) => `JPEGが壊れています。画像データが途中で切れ、最後の${m[1]}%が灰色になっています。ファイルをもう一度送ってください`],
  [/^the JPEG's header is damaged \(no image data can be found after it\): send the file again$/,
    () => "JPEGのヘッダーが壊れています（画像データが見つかりません）。ファイルをもう一度送ってください"],
  [/^image is (\d+)x(\d+) pixels; the limit is (\d+) megapixels$/, (m) => `画像が${m[1]}×${m[2]}ピクセルあり、上限の${m[3]}メガピクセルを超えています`],
  // the calibration photo and profiles refused (vision.calibrate)
  [/^no tiles found in the calibration photo: lay the tiles face up on a plain table$/,
    () => "写真に牌が見つかりません。無地のテーブルに牌を表向きに並べてください"],
  [/^found (\d+) rows of tiles \(\[([\d, ]*)\]\); the grid has 4 rows: the honours \(after the red fives, if any\), then 1p-9p, 1s-9s, 1m-9m$/,
    (m) => `牌が${m[1]}段見つかりました（${m[2].split(", ").join("・")}枚）。並べ方は4段です: 字牌（赤五があればその後）、1p〜9p、1s〜9s、1m〜9m`],
  [/^the grid is not complete: (.+) tiles \(row 1: 7 honours, after 3 red fives if the set has them, then optionally a face-down tile; rows 2-4: 9\)$/,
    (m) => `並べ方が揃っていません: ${m[1].split(", ").map((r) => r.replace(/^row (\d+) has (\d+)$/, "$1段目が$2枚")).join("、")}` +
      "（1段目は字牌7枚、赤五があればその前に3枚、その後に伏せ牌1枚を置いてもよい。2〜4段目は9枚）"],
  [/^the tiles are only (\d+) px tall in this photo: come closer \(at least (\d+) px; a grid filling the photo is best\)$/,
    (m) => `牌の高さが${m[1]}ピクセルしかありません。近づいて撮ってください（${m[2]}ピクセル以上。写真いっぱいに並べるのが最適です）`],
  [/^(.+) appears? twice in the grid: each face once, please fix the grid$/, (m) => `${m[1]}が2回あります。各牌が1枚ずつになるよう直してください`],
  [/^the grid lacks (.+): lay out one of each tile$/, (m) => `${m[1]}がありません。各牌を1枚ずつ並べてください`],
  [/^profile name '(.*)': use 1-40 letters, digits, '_' or '-'$/, (m) => `セット名「${m[1]}」: 英字・数字・_・- の1〜40文字にしてください`],
  [/^no profile named '(.*)' \(profiles: (.*)\); make one in the page's My set tab or with riichi-lens calibrate$/,
    (m) => `「${m[1]}」という牌セットはありません（${m[2] === "none yet" ? "まだ一つもありません" : `「${m[2]}」`}）。「牌セット」タブで作ってください`],
  // the context refused (rules.context, rules.readout)
  [/^three-player games have no north seat or round$/, () => "三人麻雀に北家・北場はありません"],
  [/^(a ron|pao) from across: three players sit E S W, nobody is across; use left or right$/,
    (m) => `${m[1] === "pao" ? "責任払い" : "ロン"}の相手が対面: 三人麻雀に対面はいません。上家か下家にしてください`],
  [/^only a ron can be shared with another winner$/, () => "ダブロンはロンのときだけです"],
  [/^ippatsu needs riichi$/, () => "一発にはリーチが必要です"],
  [/^haitei, rinshan, tenhou and chiihou are self-drawn wins: set tsumo$/, () => "海底・嶺上開花・天和・地和はツモ和了です。ツモを選んでください"],
  [/^houtei, chankan and renhou are wins on another player's tile: not tsumo$/, () => "河底・槍槓・人和はロン和了です。ツモにはできません"],
  [/^houtei and chankan cannot be one win: no kan can be declared on the last tile$/, () => "河底と槍槓は同時に成立しません（最後の牌ではカンできません）"],
  [/^haitei and rinshan cannot be one win: no kan can be declared on the last tile, and a rinshan tile comes from the dead wall$/, () => "海底と嶺上開花は同時に成立しません（最後の牌ではカンできず、嶺上牌は王牌から引きます）"],
  [/^ippatsu and rinshan cannot be one win: the kan declared after riichi ends ippatsu$/, () => "一発と嶺上開花は同時に成立しません（リーチ後のカンで一発は消えます）"],
  [/^ippatsu and rinshan cannot be one win: the kan or north set aside after riichi ends ippatsu$/, () => "一発と嶺上開花は同時に成立しません（リーチ後のカンや北抜きで一発は消えます）"],
  [/^(tenhou|chiihou|renhou) is won before any call, and a north set aside is as one: not with kita (\d+)$/,
    (m) => `${yakuName(m[1])}は鳴きの前の和了で、北抜きは鳴きと同じ扱いです（北抜き${m[2]}とは両立しません）`],
  [/^a ron on a north another player set aside is a plain ron, not chankan: leave chankan off$/,
    () => "他家が抜いた北へのロンは槍槓ではなく普通のロンです。槍槓を外してください"],
  [/^honba (\d+), riichi sticks (\d+): no table counts above (\d+)$/, (m) => `本場${m[1]}・供託${m[2]}: ${m[3]}を超える数は数えません`],
  [/^kita (\d+): a set has only four north tiles to set aside$/, (m) => `北抜き${m[1]}: 北は4枚しかありません`],
  [/^rinshan kaihou needs a kan( or a north set aside)?: this hand has none$/, (m) => `嶺上開花にはカン${m[1] ? "か北抜き" : ""}が必要です（この手にはありません）`],
  [new RegExp(`^chankan: the robbed ${TILE} is the fourth of its kind, the kan held the other three, so this hand cannot hold (\\d+) of them$`),
    (m) => `槍槓: 奪う${m[1]}は4枚目で、残りの3枚は加槓にあるので、この手に${m[2]}枚あるはずがありません`],
  [/^chankan: the robbed tile is the fourth of its kind, the kan held the other three, but this hand holds each of its tiles twice or more$/,
    () => "槍槓: 奪う牌は4枚目で、残りの3枚は加槓にありますが、この手はどの待ち牌も2枚以上持っています"],
  [/^ruleset options kita and tsumo_loss are three-player rules: use a \*-sanma preset$/,
    () => "ルール設定「kita」と「tsumo_loss」は三人麻雀のルールです。「-sanma」の付くプリセットを使ってください"],
  [/^seat (self|right|across|left): in (\S+) three players sit self, right and left$/,
    (m) => `席「${t(m[1])}」: 「${m[2]}」は三人麻雀で、席は自分・下家・上家です`],
  [/^([0-9mpsz, ]+): a three-player set has no 2m-8m, only 1m and 9m of the manzu$/,
    (m) => `${m[1]}: 三人麻雀の牌に2m〜8mはありません（萬子は1mと9mだけです）`],
  [new RegExp(`^the winning tile ${TILE} must be among the concealed tiles$`), (m) => `和了牌${m[1]}は手牌（副露以外）の中の牌にしてください`],
  // a typed hand's meld refused (rules.tiles)
  [/^(chi|pon|daiminkan|kakan|ankan) ([0-9mpsz'"]+) has (\d+) tiles: an? \w+ has (\d+)$/,
    (m) => `${t(m[1])} ${m[2]} は${m[3]}枚です。${t(m[1])}は${m[4]}枚です`],
  [/^meld (['"])(.*)\1 must end with its suit letter$/, (m) => `副露「${m[2]}」の最後に色の文字（m・p・s・z）を付けてください`],
  [/^unexpected (['"])(.*)\1 in meld (['"])(.*)\3$/, (m) => `副露「${m[4]}」に使えない文字「${m[2]}」があります`],
  [/^a closed kan takes no tile from another player: (\S+)$/, (m) => `暗槓は他家から鳴いた牌を含みません: ${m[1]}`],
  [/^kakan (\S+): the added tile must be one of its tiles$/, (m) => `加槓 ${m[1]}: 加える牌は同じ牌です`],
  [/^kakan (\S+): say which of its tiles was added to the pon \(added\)$/, (m) => `加槓 ${m[1]}: ポンに加えた牌を指定してください（added）`],
  // what the photo's melds give (vision.layout)
  [new RegExp(`^closed kan shows two different tiles ${TILE} and ${TILE}$`), (m) => `暗槓に違う牌${m[1]}と${m[2]}が見えています`],
  [new RegExp(`^a box read as ${TILE} on the called tile of this (chi|pon|daiminkan|kakan) is left out$`),
    (m) => `この${t(m[2])}の鳴いた牌に重なる、${m[1]}と読んだ枠は除外しました`],
  // images, frames and requests refused (vision.image, server.live, server.access), and the page's own words
  [/^the (\w+) could not be decoded: the file is damaged, of a kind OpenCV does not read \(a TIFF of floats, say\), or larger than (\d+) megapixels$/,
    (m) => `${m[1]}を読み込めませんでした。ファイルが壊れているか、読めない形式（浮動小数のTIFFなど）か、${m[2]}メガピクセルを超えています`],
  [/^the (\w+) could not be decoded \((.*)\)$/, (m) => `${m[1]}を読み込めませんでした（${m[2]}）`],
  [/^the (\w+) is transparent all over: nothing in it shows$/, (m) => `${m[1]}は全面が透明で、何も写っていません`],
  [/^the (\w+) is larger than (\d+) megapixels, the limit$/, (m) => `${m[1]}が上限の${m[2]}メガピクセルを超えています`],
  [/^this is a (\w+) image: send (\w+) or (\w+)$/, (m) => `${m[1]}の画像です。${m[2]}か${m[3]}を送ってください`],
  [/^frame is over (\d+) MiB: send smaller JPEG frames$/, (m) => `フレームが${m[1]} MiBを超えています。もっと小さいJPEGのフレームを送ってください`],
  [/^camera (-?\d+) could not be opened$/, (m) => `カメラ${m[1]}を開けませんでした`],
  [/^too many wrong access codes from this device: wait a minute(?:, then open the URL printed in the riichi-lens terminal)?$/,
    () => "この端末から間違ったアクセスコードが続けて送られました。1分待ってから、riichi-lens のターミナルに表示されたURLを開いてください"],
  [/^the upload is too large \(over (\d+) MiB\): send a smaller photo, at most (\d+) MiB$/,
    (m) => `送信が${m[1]} MiBを超えていて大きすぎます。${m[2]} MiB以下の写真を送ってください`],
  [/^the request is too large \(over (\d+) MiB\)$/, (m) => `リクエストが${m[1]} MiBを超えていて大きすぎます`],
  [/^(\S+): (.*) \(is the server running\?\)$/, (m) => `${m[1]}: ${m[2]}（サーバーが起動していますか？）`],
  [/^(\S+): the answer is not JSON$/, (m) => `${m[1]}: サーバーの応答がJSONではありません`],
  [/^the browser cannot show this photo$/, () => "このブラウザではこの写真を表示できません"],
  [/^unexpected character '(.)' in '(.*)'$/, (m) => `「${m[2]}」に使えない文字「${m[1]}」があります`],
  [/^suit letter '([mpsz])' in '(.*)' has no digits before it$/, (m) => `「${m[2]}」の「${m[1]}」の前に数字がありません`],
  [/^digits '(\d+)' at the end of '(.*)' have no suit letter$/, (m) => `「${m[2]}」の最後の数字「${m[1]}」に色の文字（m・p・s・z）がありません`],
  [/^meld '(.*)' must mark exactly one called tile with ' \(or " for an added kan\)$/,
    (m) => `副露「${m[1]}」は鳴いた牌1枚に ' を付けて書いてください（加槓は "）`],
  [/^no such tile '(.*)' in '(.*)' \(honours are 1z\.\.7z, red fives 0m\/0p\/0s\)$/,
    (m) => `「${m[2]}」の「${m[1]}」は牌として読めません（字牌は1z〜7z、赤五は0m/0p/0s）`],
];

function messageText(message) {
  if (lang !== "ja") return message;
  for (const [pattern, say] of MESSAGES_JA) {
    const m = message.match(pattern);
    if (m) return say(m);
  }
  return message;
}

// A tile's name as a screen reader says it (an image's alt): "red 5 pin", "east wind"; 赤五筒, 東. Its code ("0p") is
// what the page shows on a photo's tiles and in the hand's notation, read aloud letter by letter.
const SUITS = { en: { m: "man", p: "pin", s: "sou" }, ja: { m: "萬", p: "筒", s: "索" } };
const HONOURS = {
  en: ["east wind", "south wind", "west wind", "north wind", "haku", "hatsu", "chun"],
  ja: ["東", "南", "西", "北", "白", "發", "中"],
};
const NUMERALS_JA = "〇一二三四五六七八九";

function tileName(code) {
  if (code === "back") return t("face_down");
  const m = /^([0-9])([mpsz])$/.exec(code);
  if (!m) return code;
  const n = +m[1];
  if (m[2] === "z") return HONOURS[lang][n - 1] ?? code;
  if (lang === "ja") return (n === 0 ? "赤五" : NUMERALS_JA[n]) + SUITS.ja[m[2]];
  return (n === 0 ? "red 5 " : n + " ") + SUITS.en[m[2]];
}

// The code as shown and the name as said, for a name that holds a tile's visible label (WCAG 2.5.3): "0p (red 5 pin)".
const tileLabel = (code) => (code === "back" ? tileName(code) : `${code} (${tileName(code)})`);

// The house rules' options (/api/house-rules) in Japanese: typed as they are, so a gloss beside the name, and the
// values' description said in Japanese words
const HOUSE_JA = {
  red_fives: "赤ドラ", kuitan: "喰いタン", kiriage_mangan: "切り上げ満貫", kazoe_yakuman: "数え役満",
  double_yakuman: "ダブル役満", yakuman_stacking: "役満の複合", nagashi_mangan: "流し満貫", renhou: "人和",
  pinfu_tsumo: "平和ツモ", double_wind_pair_fu: "連風牌の雀頭の符", rinshan_tsumo_fu: "嶺上ツモの符", ippatsu: "一発",
  ura_dora: "裏ドラ", kan_dora: "カンドラ", kan_ura_dora: "カン裏ドラ", multiple_ron: "複数ロン：頭ハネ／ダブロン／トリロン",
  abortive_draws: "途中流局", suji_kuikae: "筋喰い替え", kuikae_allowed: "喰い替えあり",
  temporary_furiten_ends_on_call: "同巡内フリテンの鳴きによる解除", atozuke: "後付け", pao: "責任払い（パオ）",
  pao_pays_honba: "パオのロンの本場は責任者が払う", honba_every_winner: "ダブロンの本場は各和了者に",
  honba_ron: "ロンの1本場あたりの加算点", honba_tsumo: "ツモの1本場あたりの加算点", noten_payment_total: "ノーテン罰符の総額", tsumo_loss: "ツモ損",
  kita: "北抜き",
};

function houseOption(name, values) {
  if (lang !== "ja") return `${name}: ${values}`;
  const said = values
    .replace(/^a whole number from (\d+) to (\d+)$/, "$1〜$2の整数")
    .replace(/^0 or 1 red five a suit, such as (\S+)$/, "各色の赤五の枚数 0 / 1（例 $1）")
    .replaceAll(" or ", " / ");
  return HOUSE_JA[name] ? `${name}（${HOUSE_JA[name]}）: ${said}` : `${name}: ${said}`;
}

function termName(word) {
  return lang === "ja" && TERMS_JA[word] ? TERMS_JA[word] : word;
}

function limitName(limit) {
  return limit ? t("limit_" + limit) : "";
}

// A preset's name as players know it (Tenhou, 雀魂); one the page has no words for, as the server names it
const rulesetName = (name) => (STRINGS.en[`ruleset_${name}`] ? t(`ruleset_${name}`) : name);

// 1, 2, 3 yakuman as tables say them: yakuman, double yakuman (ダブル役満), triple; more as "4× yakuman"
const yakumanName = (n) => (n >= 1 && n <= 3 ? t(`yakuman_${n}`) : t("yakuman_n", n));

// Puts every static label in the current language: data-i18n (text), data-i18n-title (tooltip),
// data-i18n-label (the name a screen reader says, for a button showing a sign: ×, +).
function applyLang() {
  document.documentElement.lang = lang;
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-title]").forEach((el) => { el.title = t(el.dataset.i18nTitle); });
  document.querySelectorAll("[data-i18n-label]").forEach((el) => el.setAttribute("aria-label", t(el.dataset.i18nLabel)));
  document.querySelectorAll("[data-i18n-ron]").forEach((el) => { el.textContent = t("ron_from", t(el.dataset.i18nRon)); });
  document.querySelectorAll("[data-lang]").forEach((b) => b.setAttribute("aria-pressed", String(b.dataset.lang === lang)));
}

function setLang(next) {
  lang = next === "ja" ? "ja" : "en";
  localStorage.setItem(LANG_KEY, lang);
  applyLang();
}
