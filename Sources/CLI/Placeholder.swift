import ArgumentParser
import Storage
