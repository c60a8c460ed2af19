package dungeonhack

// WeaponByKey finds a weapon.
func WeaponByKey(k string) (Weapon, bool) {
	for _, w := range Book().Weapons() {
		if w.Key == k {
			return w, true
		}
	}
	return Weapon{}, false
}

// ArmourByKey finds an armour.
func ArmourByKey(k string) (Armour, bool) {
	for _, a := range Book().Armours() {
		if a.Key == k {
			return a, true
		}
	}
	return Armour{}, false
}
