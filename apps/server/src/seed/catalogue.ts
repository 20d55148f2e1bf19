/** A small retailer's catalogue and stores, for the demo programme. */
export interface Product {
  sku: string;
  category: string;
  price: number;
}

export const products: Product[] = [
  { sku: 'BRD-001', category: 'Bakery', price: 2.49 },
  { sku: 'BRD-014', category: 'Bakery', price: 3.99 },
  { sku: 'CRS-002', category: 'Bakery', price: 1.29 },
  { sku: 'MLK-100', category: 'Dairy', price: 1.19 },
  { sku: 'CHS-230', category: 'Dairy', price: 4.79 },
  { sku: 'YGT-045', category: 'Dairy', price: 0.89 },
  { sku: 'APL-010', category: 'Produce', price: 2.99 },
  { sku: 'BAN-011', category: 'Produce', price: 1.59 },
  { sku: 'TOM-020', category: 'Produce', price: 3.49 },
  { sku: 'COF-500', category: 'Beverages', price: 8.99 },
  { sku: 'TEA-120', category: 'Beverages', price: 3.29 },
  { sku: 'JCE-330', category: 'Beverages', price: 2.69 },
  { sku: 'WIN-750', category: 'Alcohol', price: 12.99 },
  { sku: 'BER-006', category: 'Alcohol', price: 7.49 },
  { sku: 'DET-900', category: 'Household', price: 11.49 },
  { sku: 'PAP-024', category: 'Household', price: 6.99 },
  { sku: 'SHM-250', category: 'Personal care', price: 5.49 },
  { sku: 'TPS-075', category: 'Personal care', price: 2.99 },
  { sku: 'CIG-020', category: 'Tobacco', price: 9.8 },
  { sku: 'GFT-025', category: 'Gift cards', price: 25 },
  { sku: 'GFT-050', category: 'Gift cards', price: 50 },
  { sku: 'LOT-001', category: 'Lottery', price: 2 },
  { sku: 'HDP-310', category: 'Electronics', price: 39.99 },
  { sku: 'CBL-101', category: 'Electronics', price: 12.99 },
];

/** SKUs the active ruleset does not reward (regulated goods and cash equivalents). */
export const exclusions = [
  { sku: 'CIG-020', description: 'Cigarettes, pack of 20', category: 'Tobacco' },
  { sku: 'GFT-025', description: 'Gift card 25', category: 'Gift cards' },
  { sku: 'GFT-050', description: 'Gift card 50', category: 'Gift cards' },
  { sku: 'LOT-001', description: 'Lottery ticket', category: 'Lottery' },
  { sku: 'DEP-BTL', description: 'Bottle deposit', category: null },
];

export const stores = [
  { name: 'Main Street', address: '12 Main Street, Springfield' },
  { name: 'Riverside Mall', address: 'Riverside Mall, unit 41' },
  { name: 'Airport Kiosk', address: 'Terminal 2, Gate B' },
  { name: 'Harbour Market', address: '3 Quay Road' },
  { name: 'Online Shop', address: null },
  { name: 'Old Town (closed)', address: '7 Market Square' },
];

/** Relative traffic by hour of day (UTC): morning rush, lunch, evening peak. */
export const hourWeights = [0, 0, 0, 0, 0, 0, 1, 3, 6, 7, 7, 8, 11, 10, 7, 6, 7, 10, 12, 11, 8, 5, 2, 1];

/** Relative traffic by weekday, Sunday first: weekends are busier. */
export const weekdayWeights = [1.25, 0.85, 0.9, 0.95, 1, 1.15, 1.4];
