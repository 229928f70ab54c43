/**
 * The vocabulary of the synthetic directory: brands, shop categories (with the words people
 * search for), amenities with their prevalence, street names and the item catalogue. Invented
 * names only; nothing here refers to a real business.
 */

export const BRANDS = [
  'Alder',
  'Bramble',
  'Cobalt',
  'Driftwood',
  'Ember',
  'Fennel',
  'Granite',
  'Harbor',
  'Indigo',
  'Juniper',
  'Kestrel',
  'Larch',
  'Meridian',
  'Northwind',
  'Orchard',
  'Pinecone',
  'Quarry',
  'Rosemary',
  'Saffron',
  'Thistle',
  'Umber',
  'Verde',
  'Willow',
  'Yarrow',
  'Zephyr',
  'Aurora',
  'Beacon',
  'Cedar',
  'Dune',
  'Estuary',
  'Foxglove',
  'Garnet',
  'Heather',
  'Iris',
  'Jasper',
  'Kelp',
  'Lumen',
  'Maple',
  'Nimbus',
  'Opal',
] as const;

export interface Category {
  /** Word used in names ("Pharmacy"). */
  title: string;
  /** Search keywords stored with the record. */
  keywords: readonly string[];
  /** Relative frequency among Locations. */
  weight: number;
}

export const CATEGORIES: readonly Category[] = [
  { title: 'Grocers', keywords: ['grocery', 'supermarket', 'food'], weight: 18 },
  { title: 'Pharmacy', keywords: ['pharmacy', 'chemist', 'drugstore'], weight: 10 },
  { title: 'Bakery', keywords: ['bakery', 'bread', 'pastry'], weight: 8 },
  { title: 'Hardware', keywords: ['hardware', 'tools', 'diy'], weight: 6 },
  { title: 'Electronics', keywords: ['electronics', 'phones', 'computers'], weight: 5 },
  { title: 'Books', keywords: ['bookstore', 'books', 'stationery'], weight: 4 },
  { title: 'Florist', keywords: ['florist', 'flowers', 'plants'], weight: 3 },
  { title: 'Pet Supply', keywords: ['pet', 'petfood', 'aquarium'], weight: 4 },
  { title: 'Coffee', keywords: ['coffee', 'cafe', 'espresso'], weight: 9 },
  { title: 'Corner Shop', keywords: ['convenience', 'snacks', 'newsagent'], weight: 9 },
  { title: 'Opticians', keywords: ['optician', 'glasses', 'eyewear'], weight: 2 },
  { title: 'Garden Centre', keywords: ['garden', 'nursery', 'plants'], weight: 2 },
  { title: 'Cycles', keywords: ['bicycle', 'bike', 'repair'], weight: 2 },
  { title: 'Sports', keywords: ['sporting', 'fitness', 'outdoor'], weight: 3 },
  { title: 'Toys', keywords: ['toys', 'games', 'puzzles'], weight: 2 },
  { title: 'Butchers', keywords: ['butcher', 'meat', 'deli'], weight: 3 },
  { title: 'Wine Cellar', keywords: ['wine', 'liquor', 'spirits'], weight: 3 },
  { title: 'Furniture', keywords: ['furniture', 'sofas', 'homeware'], weight: 2 },
  { title: 'Laundry', keywords: ['laundry', 'drycleaning', 'tailor'], weight: 2 },
  { title: 'Fuel Stop', keywords: ['fuel', 'petrol', 'carwash'], weight: 3 },
];

export interface AmenityDef {
  id: string;
  description: string;
  /** Probability that a Location has it. */
  prevalence: number;
}

/** Twenty amenity types, reverse-domain ids as the seed requires, from rare to common. */
export const AMENITIES: readonly AmenityDef[] = [
  { id: 'com.example.amenity.parking', description: 'Customer parking', prevalence: 0.55 },
  { id: 'com.example.amenity.wheelchair_access', description: 'Step-free access', prevalence: 0.6 },
  { id: 'com.example.amenity.wifi', description: 'Free Wi-Fi', prevalence: 0.4 },
  { id: 'com.example.amenity.restroom', description: 'Customer restroom', prevalence: 0.35 },
  { id: 'com.example.amenity.curbside_pickup', description: 'Curbside pickup', prevalence: 0.25 },
  { id: 'com.example.amenity.click_and_collect', description: 'Click and collect counter', prevalence: 0.3 },
  { id: 'com.example.amenity.ev_charging', description: 'EV charging', prevalence: 0.1 },
  { id: 'com.example.amenity.atm', description: 'Cash machine', prevalence: 0.2 },
  { id: 'com.example.amenity.drive_through', description: 'Drive-through', prevalence: 0.06 },
  { id: 'com.example.amenity.bike_parking', description: 'Bicycle parking', prevalence: 0.3 },
  { id: 'com.example.amenity.baby_changing', description: 'Baby changing room', prevalence: 0.15 },
  { id: 'com.example.amenity.self_checkout', description: 'Self checkout', prevalence: 0.2 },
  { id: 'com.example.amenity.pet_friendly', description: 'Pets welcome', prevalence: 0.18 },
  { id: 'com.example.amenity.parcel_locker', description: 'Parcel lockers', prevalence: 0.08 },
  { id: 'com.example.amenity.returns_desk', description: 'Returns desk', prevalence: 0.12 },
  { id: 'com.example.amenity.photo_printing', description: 'Photo printing', prevalence: 0.04 },
  { id: 'com.example.amenity.key_cutting', description: 'Key cutting', prevalence: 0.03 },
  { id: 'com.example.amenity.seating', description: 'Seating area', prevalence: 0.22 },
  { id: 'com.example.amenity.water_refill', description: 'Water refill station', prevalence: 0.05 },
  { id: 'com.example.amenity.hearing_loop', description: 'Hearing loop', prevalence: 0.02 },
];

export const STREET_WORDS = [
  'Main',
  'High',
  'Station',
  'Market',
  'Church',
  'Park',
  'Mill',
  'River',
  'Oak',
  'Cedar',
  'Bridge',
  'Castle',
  'Garden',
  'Harbour',
  'King',
  'Queen',
  'Lake',
  'Hill',
  'Meadow',
  'North',
] as const;
export const STREET_KINDS = ['Street', 'Road', 'Avenue', 'Lane', 'Way', 'Boulevard', 'Square'] as const;

/** Size of the item catalogue (`sku-00000` … `sku-04999`). */
export const ITEM_COUNT = 5000;

export function itemId(n: number): string {
  return `sku-${String(n).padStart(5, '0')}`;
}
