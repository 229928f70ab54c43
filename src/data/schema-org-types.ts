/**
 * Which schema.org types are businesses with a place (LocalBusiness and its subtypes). The
 * vocabulary has a few hundred subtypes and grows; this list holds LocalBusiness, its direct
 * subtypes and the common deeper ones, and any type whose name ends in
 * one of SUFFIXES is accepted too (`ShoeStore`, `TireShop`, `ThaiRestaurant` as some sites write).
 * A type outside both (`Organization`, `WebPage`, `Place`) is not a Location: such nodes are
 * skipped and counted.
 */

const TYPES = new Set(
  `
  LocalBusiness AnimalShelter ArchiveOrganization AutomotiveBusiness ChildCare Dentist
  DryCleaningOrLaundry EmergencyService EmploymentAgency EntertainmentBusiness FinancialService
  FoodEstablishment GovernmentOffice HealthAndBeautyBusiness HomeAndConstructionBusiness InternetCafe
  LegalService Library LodgingBusiness MedicalBusiness ProfessionalService RadioStation
  RealEstateAgent RecyclingCenter SelfStorage ShoppingCenter SportsActivityLocation Store
  TelevisionStation TouristInformationCenter TravelAgency Bakery BarOrPub Brewery CafeOrCoffeeShop
  Distillery IceCreamShop Winery AutoBodyShop AutoDealer AutoRental AutoRepair AutoWash GasStation
  MotorcycleDealer MotorcycleRepair AccountingService AutomatedTeller BankOrCreditUnion
  InsuranceAgency BeautySalon DaySpa HairSalon HealthClub NailSalon TattooParlor Optician Pharmacy
  Physician MedicalClinic DiagnosticLab VeterinaryCare Hotel Motel Hostel BedAndBreakfast Campground
  Resort VacationRental Electrician GeneralContractor HVACBusiness HousePainter Locksmith
  MovingCompany Plumber RoofingContractor AmusementPark ArtGallery Casino ComedyClub MovieTheater
  NightClub BowlingAlley ExerciseGym GolfCourse PublicSwimmingPool SkiResort SportsClub StadiumOrArena
  TennisComplex FireStation Hospital PoliceStation PostOffice Attorney Notary Florist PawnShop
  `
    .trim()
    .split(/\s+/)
    .map((t) => t.toLowerCase()),
);

/** Name endings that only LocalBusiness subtypes use in schema.org (`…Store`, `…Shop`, `…Restaurant`). */
const SUFFIXES = ['store', 'shop', 'restaurant'];

/** Is `type` (a local name: `Store`, not `https://schema.org/Store`) LocalBusiness or a subtype? */
export function isLocalBusinessType(type: string): boolean {
  const t = type.toLowerCase();
  return TYPES.has(t) || SUFFIXES.some((s) => t.endsWith(s));
}
