/**
 * What every code a cashier can meet, and an order's flags, mean in the
 * cashier's words: core's codes (the server's, and core's rules the till runs)
 * and the till's own refusals, in one map. Typed against the closed sets, so
 * a new code or flag cannot reach a cashier as a bare identifier: the
 * compiler asks for its sentence here.
 */
import { isErrorCode, type OrderFlag } from '@tz/core';
import type { RefusalCode } from '../data/api.ts';
import { interpolate, type Language, type Params } from './format.ts';

type Words<K extends string> = Record<Language, Record<K, string>>;

export const CODE_WORDS: Words<RefusalCode> = {
  en: {
    parameter_missing: 'A value the server needs was missing.',
    parameter_invalid: 'A value was not accepted by the server.',
    parameter_unknown: 'The till sent a field the server does not know.',
    amount_invalid: 'The amount was not accepted.',
    currency_invalid: 'The currency was not accepted.',
    currency_mismatch: 'The currency differs from the store’s.',
    phone_invalid: 'That is not a Tanzanian mobile number. Write it like 0712 345 678 or +255 712 345 678.',
    email_invalid: 'The email address is not valid.',
    email_taken: 'That email address is already in use.',
    body_invalid_json: 'The server could not read what the till sent.',
    body_too_large: 'What the till sent was too large.',
    body_too_complex: 'What the till sent was too complex.',
    parameter_duplicate: 'A value was given twice.',
    request_malformed: 'The server could not read what the till sent.',
    content_type_invalid: 'The server could not read what the till sent.',
    idempotency_key_too_long: 'The till’s command id was too long.',
    limit_invalid: 'The list size was not accepted.',
    cursor_invalid: 'The list position was not accepted.',
    state_transition_invalid:
      'The sale changed on the server meanwhile (voided or refunded there), so this cannot be done to it.',
    insufficient_funds: 'There is not enough money for this.',
    checkout_not_open: 'That checkout is no longer open.',
    product_unknown: 'A product on the sale is not in the catalogue.',
    price_changed: 'A price changed since the till last synced.',
    quantity_invalid: 'A quantity was not accepted.',
    tender_insufficient: 'The payment does not cover the total.',
    tender_exceeds_due: 'Only cash may be more than the amount due.',
    discount_invalid: 'The discount was not accepted.',
    payment_not_paid: 'The mobile money payment was not paid.',
    payment_already_used: 'That mobile money payment already paid another sale.',
    sku_taken: 'That SKU is already used by another product.',
    barcode_taken: 'That barcode is already used by another product.',
    plu_taken: 'That scale item code (PLU) is already used by another product.',
    receipt_number_taken: 'That receipt number was already used by another sale.',
    pin_taken: 'Another employee already has that PIN.',
    pairing_code_invalid:
      'That is not a pairing code of ours. Check each character, or paste the whole pairing link.',
    pairing_code_expired:
      'That pairing code has expired: codes last 15 minutes. Ask the owner for a new one.',
    pairing_code_used:
      'That pairing code was already used by a till. Each code pairs one till: ask the owner for a new one.',
    event_type_unknown: 'The event type is not known.',
    url_invalid: 'The address is not valid.',
    url_not_allowed: 'That address is not allowed.',
    webhook_endpoint_inactive: 'That webhook endpoint is switched off.',
    api_key_last: 'The last API key cannot be removed.',
    till_export_invalid: 'The export file was not accepted: it is damaged or from another till.',
    livemode_mismatch: 'Test and live data cannot be mixed.',
    room_unavailable: 'That room is already taken for those dates. Choose another room or other dates.',
    reservations_in_the_way:
      'Guests are already booked there for those dates. Move or cancel their bookings first.',
    folio_unsettled:
      'The guest’s bill is not settled. Take the payment first, or ask a manager to let the guest leave.',
    sold_out: 'Not enough tickets are left for that.',
    sales_closed: 'Tickets for that are not on sale now.',
    tickets_sold: 'Tickets have been sold for that. Cancel the event instead.',
    request_timeout: 'The server waited too long for the till.',
    headers_too_large: 'What the till sent was too large.',
    api_key_missing: 'The server asked for a key.',
    api_key_invalid: 'The server did not accept the key.',
    credentials_invalid: 'The sign-in details were not accepted.',
    signature_invalid: 'The signature was not accepted.',
    till_credential_invalid: 'The server does not know this till any more. Pair it again.',
    till_revoked: 'This till was revoked. Its unsynced sales stay here.',
    till_retired: 'This till was retired: it records no new sales.',
    publishable_key_forbidden: 'That key may not do this.',
    test_mode_only: 'This works in test mode only.',
    origin_not_allowed: 'This page may not call the server.',
    app_not_installed: 'The app for this is not switched on for the business.',
    resource_missing: 'The server has no such sale at this till’s store.',
    route_not_found: 'The server does not offer this.',
    idempotency_key_in_use: 'The server is still working on this command.',
    idempotency_key_reused: 'This command id was already used for something else.',
    rate_limited: 'Too many requests: the till will try again shortly.',
    internal_error: 'The server had a problem; the till will try again.',
    service_unavailable: 'The server is busy; the till will try again.',
    provider_unavailable: 'The mobile money network does not answer; try again shortly.',
    // the till's own
    not_paired: 'This till is not paired yet.',
    already_paired: 'This till is already paired.',
    pairing_failed: 'That pairing code did not work. Codes work once, for 15 minutes.',
    ended_unsynced:
      '{count} sales or changes never reached the server: export them, or abandon them with a manager’s PIN, first.',
    nothing_to_export: 'Nothing on this till is waiting to sync.',
    offline: 'The till is offline.',
    unreachable: 'The server does not answer.',
    unsynced_commands:
      'Not while {count} sales or changes are waiting to sync. Connect to the internet and wait for them.',
    not_signed_in: 'Sign in first.',
    pin_wrong: 'Wrong PIN.',
    cashiers_not_synced:
      'The cashiers have not reached this till yet: keep it online until the first sync ends.',
    pin_locked: 'Locked after 5 wrong PINs. Try again at {time}.',
    manager_pin_required: 'A manager’s PIN is needed.',
    manager_pin_wrong: 'That is not a manager’s PIN.',
    not_found: 'Not found.',
    cart_empty: 'The sale has no items.',
    invalid: 'Check the value entered.',
    shift_not_open: 'Open the shift first.',
    shift_already_open: 'The shift is already open.',
    nothing_to_reprint: 'No receipt to reprint yet.',
    choose_variant: 'Choose one of its variants.',
    customer_name_missing: 'Write the customer’s name.',
    scale_label_unreadable:
      'This scale label cannot be read: scan it again, or search the product and type its weight.',
    scale_label_weight_on_piece: 'This label carries a weight, but the product is sold by the piece.',
    scale_label_price_not_whole: 'The label’s price is not a whole number of pieces at the product’s price.',
    scale_label_too_small: 'The label’s price is too small to sell any of this product.',
    unknown: 'Something went wrong: {message}',
  },
  sw: {
    parameter_missing: 'Taarifa ambayo seva inahitaji haikuwepo.',
    parameter_invalid: 'Seva haikukubali taarifa moja.',
    parameter_unknown: 'Kaunta ilituma sehemu ambayo seva haiijui.',
    amount_invalid: 'Kiasi hakikukubaliwa.',
    currency_invalid: 'Sarafu haikukubaliwa.',
    currency_mismatch: 'Sarafu ni tofauti na ya duka.',
    phone_invalid:
      'Hii si namba ya simu ya mkononi ya Tanzania. Iandike kama 0712 345 678 au +255 712 345 678.',
    email_invalid: 'Barua pepe si sahihi.',
    email_taken: 'Barua pepe hiyo tayari inatumika.',
    body_invalid_json: 'Seva haikuweza kusoma kilichotumwa na kaunta.',
    body_too_large: 'Kilichotumwa na kaunta ni kikubwa mno.',
    body_too_complex: 'Kilichotumwa na kaunta kina mpangilio tata mno.',
    parameter_duplicate: 'Taarifa moja ilitolewa mara mbili.',
    request_malformed: 'Seva haikuweza kusoma kilichotumwa na kaunta.',
    content_type_invalid: 'Seva haikuweza kusoma kilichotumwa na kaunta.',
    idempotency_key_too_long: 'Kitambulisho cha amri ya kaunta ni kirefu mno.',
    limit_invalid: 'Ukubwa wa orodha haukukubaliwa.',
    cursor_invalid: 'Nafasi ya orodha haikukubaliwa.',
    state_transition_invalid:
      'Mauzo haya yamebadilika kwenye seva (yamebatilishwa au kurejeshwa huko), kwa hiyo hili haliwezekani.',
    insufficient_funds: 'Hakuna pesa za kutosha kwa hili.',
    checkout_not_open: 'Malipo hayo hayako wazi tena.',
    product_unknown: 'Bidhaa moja kwenye mauzo haimo kwenye orodha ya bidhaa.',
    price_changed: 'Bei ilibadilika tangu kaunta ilipopokea taarifa mara ya mwisho.',
    quantity_invalid: 'Idadi haikukubaliwa.',
    tender_insufficient: 'Malipo hayatoshi kulipa jumla.',
    tender_exceeds_due: 'Taslimu pekee inaweza kuzidi kiasi kinachodaiwa.',
    discount_invalid: 'Punguzo halikukubaliwa.',
    payment_not_paid: 'Malipo ya pesa ya simu hayajalipwa.',
    payment_already_used: 'Malipo hayo ya pesa ya simu tayari yalilipia mauzo mengine.',
    sku_taken: 'SKU hiyo tayari inatumiwa na bidhaa nyingine.',
    barcode_taken: 'Msimbopau huo tayari unatumiwa na bidhaa nyingine.',
    plu_taken: 'Namba hiyo ya bidhaa kwenye mizani (PLU) tayari inatumiwa na bidhaa nyingine.',
    receipt_number_taken: 'Namba hiyo ya risiti tayari imetumiwa na mauzo mengine.',
    pin_taken: 'Mfanyakazi mwingine tayari ana PIN hiyo.',
    pairing_code_invalid:
      'Huo si msimbo wetu wa kuunganisha. Hakiki kila herufi, au bandika kiungo chote cha kuunganisha.',
    pairing_code_expired:
      'Msimbo huo wa kuunganisha umeisha muda: hudumu dakika 15. Muombe mwenye duka mpya.',
    pairing_code_used:
      'Msimbo huo wa kuunganisha tayari umetumiwa na kaunta. Kila msimbo huunganisha kaunta moja: muombe mwenye duka mpya.',
    event_type_unknown: 'Aina ya tukio haijulikani.',
    url_invalid: 'Anwani si sahihi.',
    url_not_allowed: 'Anwani hiyo hairuhusiwi.',
    webhook_endpoint_inactive: 'Anwani hiyo ya webhook imezimwa.',
    api_key_last: 'Ufunguo wa mwisho wa API hauwezi kuondolewa.',
    till_export_invalid: 'Faili la mauzo halikukubaliwa: limeharibika au ni la kaunta nyingine.',
    livemode_mismatch: 'Taarifa za majaribio na za kweli haziwezi kuchanganywa.',
    room_unavailable:
      'Chumba hicho kimeshachukuliwa kwa tarehe hizo. Chagua chumba kingine au tarehe nyingine.',
    reservations_in_the_way:
      'Tayari kuna wageni waliohifadhiwa hapo kwa tarehe hizo. Hamisha au ghairi nafasi zao kwanza.',
    folio_unsettled:
      'Bili ya mgeni haijalipwa yote. Pokea malipo kwanza, au muombe meneja amruhusu mgeni kuondoka.',
    sold_out: 'Tiketi zilizobaki hazitoshi.',
    sales_closed: 'Tiketi hizo haziuzwi kwa sasa.',
    tickets_sold: 'Tiketi zimeshauzwa kwa hilo. Ghairi tukio badala yake.',
    request_timeout: 'Seva ilisubiri kaunta kwa muda mrefu mno.',
    headers_too_large: 'Kilichotumwa na kaunta ni kikubwa mno.',
    api_key_missing: 'Seva iliomba ufunguo.',
    api_key_invalid: 'Seva haikukubali ufunguo.',
    credentials_invalid: 'Taarifa za kuingia hazikukubaliwa.',
    signature_invalid: 'Sahihi haikukubaliwa.',
    till_credential_invalid: 'Seva haiitambui kaunta hii tena. Iunganishe upya.',
    till_revoked: 'Kaunta hii imefutwa. Mauzo yake ambayo hayajatumwa yanabaki hapa.',
    till_retired: 'Kaunta hii imestaafishwa: hairekodi mauzo mapya.',
    publishable_key_forbidden: 'Ufunguo huo hauruhusiwi kufanya hili.',
    test_mode_only: 'Hili linafanya kazi kwenye majaribio pekee.',
    origin_not_allowed: 'Ukurasa huu hauruhusiwi kuwasiliana na seva.',
    app_not_installed: 'Programu ya hili haijawashwa kwa biashara hii.',
    resource_missing: 'Seva haina mauzo hayo kwenye duka la kaunta hii.',
    route_not_found: 'Seva haitoi huduma hii.',
    idempotency_key_in_use: 'Seva bado inashughulikia amri hii.',
    idempotency_key_reused: 'Kitambulisho hiki cha amri tayari kilitumika kwa jambo jingine.',
    rate_limited: 'Maombi mengi mno: kaunta itajaribu tena baada ya muda mfupi.',
    internal_error: 'Seva ilipata tatizo; kaunta itajaribu tena.',
    service_unavailable: 'Seva imebanwa; kaunta itajaribu tena.',
    provider_unavailable: 'Mtandao wa pesa ya simu haujibu; jaribu tena baada ya muda mfupi.',
    // the till's own
    not_paired: 'Kaunta hii bado haijaunganishwa.',
    already_paired: 'Kaunta hii tayari imeunganishwa.',
    pairing_failed: 'Msimbo huo haukufanya kazi. Misimbo hufanya kazi mara moja, kwa dakika 15.',
    ended_unsynced:
      'Mauzo au mabadiliko {count} hayakufika kwenye seva: yahamishe kwenye faili, au yaache kwa PIN ya meneja, kwanza.',
    nothing_to_export: 'Hakuna kinachosubiri kutumwa kwenye kaunta hii.',
    offline: 'Kaunta iko nje ya mtandao.',
    unreachable: 'Seva haijibu.',
    unsynced_commands:
      'Haiwezekani wakati mauzo au mabadiliko {count} yanasubiri kutumwa. Unganisha intaneti na uyasubiri.',
    not_signed_in: 'Ingia kwanza.',
    pin_wrong: 'PIN si sahihi.',
    cashiers_not_synced:
      'Wafanyakazi bado hawajafika kwenye kaunta hii: iache mtandaoni hadi usawazishaji wa kwanza ukamilike.',
    pin_locked: 'Imefungwa baada ya PIN 5 zisizo sahihi. Jaribu tena saa {time}.',
    manager_pin_required: 'PIN ya meneja inahitajika.',
    manager_pin_wrong: 'Hiyo si PIN ya meneja.',
    not_found: 'Haikupatikana.',
    cart_empty: 'Mauzo hayana bidhaa.',
    invalid: 'Angalia thamani uliyoandika.',
    shift_not_open: 'Fungua zamu kwanza.',
    shift_already_open: 'Zamu tayari imefunguliwa.',
    nothing_to_reprint: 'Bado hakuna risiti ya kuchapisha tena.',
    choose_variant: 'Chagua moja ya aina zake.',
    customer_name_missing: 'Andika jina la mteja.',
    scale_label_unreadable:
      'Lebo hii ya mizani haisomeki: iskani tena, au tafuta bidhaa na uandike uzito wake.',
    scale_label_weight_on_piece: 'Lebo hii ina uzito, lakini bidhaa hii inauzwa kwa kipande.',
    scale_label_price_not_whole: 'Bei ya lebo haitoi idadi kamili ya vipande kwa bei ya bidhaa hii.',
    scale_label_too_small: 'Bei ya lebo ni ndogo mno kuuza chochote cha bidhaa hii.',
    unknown: 'Hitilafu imetokea: {message}',
  },
};

export const ORDER_FLAG_WORDS: Words<OrderFlag> = {
  en: {
    price_changed: 'sold at a price that differs from the catalogue’s',
    product_unavailable: 'a product was removed or switched off before the sale',
    stock_short: 'sold more than the stock on hand',
    customer_unknown: 'the customer is not known to the server',
    cashier_inactive: 'the cashier had been deactivated before the sale',
    recovered: 'received from a removed till’s export file',
  },
  sw: {
    price_changed: 'imeuzwa kwa bei tofauti na ya orodha ya bidhaa',
    product_unavailable: 'bidhaa iliondolewa au kuzimwa kabla ya mauzo',
    stock_short: 'imeuzwa zaidi ya mzigo uliopo',
    customer_unknown: 'mteja hajulikani kwenye seva',
    cashier_inactive: 'mhudumu alikuwa amezimwa kabla ya mauzo',
    recovered: 'imepokelewa kutoka faili la kaunta iliyoondolewa',
  },
};

/** A code in words, its `{placeholders}` filled from `params`. */
export function codeText(language: Language, code: RefusalCode, params?: Params): string {
  return interpolate(CODE_WORDS[language][code], params);
}

/**
 * A code the server sent, in words; one this till predates (a newer server's)
 * falls back to the server's own message.
 */
export function serverCodeText(language: Language, code: string, fallback: string): string {
  return isErrorCode(code) ? CODE_WORDS[language][code] : fallback;
}

/** An order's flags as one sentence-like list; a flag this till predates is shown as the server named it. */
export function orderFlagsText(language: Language, flags: readonly string[]): string {
  const words = ORDER_FLAG_WORDS[language] as Record<string, string>;
  return flags.map((flag) => (Object.hasOwn(words, flag) ? words[flag]! : flag)).join('; ');
}
