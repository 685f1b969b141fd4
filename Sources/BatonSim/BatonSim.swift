import Baton
